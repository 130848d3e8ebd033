import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../cli.js';
import { startSmtpSink, type SmtpSink } from '../private-test-helpers/smtp-sink.js';
import { DEFAULT_MAIL_FROM, parseSmtpUrl, sendMail } from './send-mail.js';

describe('sendMail through a real SMTP server', () => {
  let sink: SmtpSink;
  beforeEach(async () => {
    sink = await startSmtpSink();
  });
  afterEach(() => sink.close());

  it('delivers subject, body, sender and recipients', async () => {
    const result = await sendMail(
      { host: sink.host, port: sink.port, from: 'alerts@example.test' },
      {
        to: ['ops@example.test', 'sec@example.test'],
        subject: 'Alert: 3 events',
        text: 'Three events matched.',
      },
    );
    expect(result.accepted).toEqual(['ops@example.test', 'sec@example.test']);
    const [got] = await sink.waitFor(1);
    expect(got?.envelopeFrom).toBe('alerts@example.test');
    expect(got?.envelopeTo).toEqual(['ops@example.test', 'sec@example.test']);
    expect(got?.mail.subject).toBe('Alert: 3 events');
    expect(got?.mail.text?.trim()).toBe('Three events matched.');
  });

  it('uses the default sender', async () => {
    await sendMail({ host: sink.host, port: sink.port }, { to: ['a@example.test'], subject: 's', text: 't' });
    const [got] = await sink.waitFor(1);
    expect(got?.envelopeFrom).toBe(DEFAULT_MAIL_FROM);
  });

  it('rejects when nothing listens, within its bound', async () => {
    const port = sink.port;
    await sink.close();
    await expect(
      sendMail(
        { host: '127.0.0.1', port },
        { to: ['a@example.test'], subject: 's', text: 't' },
        { timeoutMs: 5000 },
      ),
    ).rejects.toThrow();
    sink = await startSmtpSink();
  });

  it('refuses a message without recipients', async () => {
    await expect(
      sendMail({ host: sink.host, port: sink.port }, { to: [], subject: 's', text: 't' }),
    ).rejects.toThrow(/at least one recipient/);
  });
});

describe('--smtp URL', () => {
  it('reads host, port, TLS and sender', () => {
    expect(parseSmtpUrl('smtp://127.0.0.1:2525')).toEqual({ host: '127.0.0.1', port: 2525, secure: false });
    expect(parseSmtpUrl('smtps://mail.example.test?from=a%40b.test')).toEqual({
      host: 'mail.example.test',
      port: 465,
      secure: true,
      from: 'a@b.test',
    });
    expect(parseSmtpUrl('smtp://[::1]:25')).toEqual({ host: '::1', port: 25, secure: false });
  });

  it('refuses other schemes and credentials', () => {
    expect(() => parseSmtpUrl('http://x:1')).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => parseSmtpUrl('smtp://user:pw@x:1')).toThrow(/must not carry credentials/);
    expect(() => parseSmtpUrl('nonsense')).toThrow(/must be a URL/);
  });

  it('is an oaa-emulator flag', () => {
    expect(parseCliArgs(['--smtp', 'smtp://127.0.0.1:2525'])).toEqual({
      options: { port: 0, smtp: { host: '127.0.0.1', port: 2525, secure: false } },
      quiet: false,
    });
    expect(parseCliArgs(['--smtp', 'ftp://x'])).toEqual({ error: expect.stringMatching(/smtp:\/\//) });
  });
});
