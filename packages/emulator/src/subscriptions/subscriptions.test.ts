/**
 * Event subscriptions against a real SMTP server (smtp-server, read with mailparser) and real HTTP
 * receivers on port 0. The emulator clock is frozen: only moving it makes a subscription due.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmulatorClock } from '../clock.js';
import type { StartEmulatorOptions } from '../server.js';
import { useEmulator, values, violations, type Harness } from '../private-test-helpers/harness.js';
import { startHttpReceiver, type HttpReceiver } from '../private-test-helpers/http-receiver.js';
import { startSmtpSink, type SmtpSink } from '../private-test-helpers/smtp-sink.js';

const MIN = 60_000;
const SUBS = '/_emulator/subscriptions';

async function subscribe(h: Harness, body: Record<string, unknown>): Promise<{ id: string }> {
  const r = await h.call('POST', SUBS, {
    name: 'Data source watch',
    description: 'new data sources',
    ...body,
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.value as { id: string };
}

async function eventsOfType(h: Harness, type: string): Promise<Record<string, unknown>[]> {
  const r = await h.call(
    'GET',
    `/api/preview/events?filter=${encodeURIComponent(`event_type eq "${type}"`)}`,
  );
  return values(r);
}

describe('event subscriptions', () => {
  const clock = new EmulatorClock({ start: '2026-06-01T00:00:00Z', frozen: true });
  const options: StartEmulatorOptions = { clock, deliveryTimeoutMs: 2000 };
  let sink: SmtpSink;
  let receiver: HttpReceiver;
  beforeEach(async () => {
    clock.set('2026-06-01T00:00:00Z');
    sink = await startSmtpSink();
    receiver = await startHttpReceiver();
    options.smtp = { host: sink.host, port: sink.port, from: 'alerts@emulator.test' };
  });
  afterEach(async () => {
    await sink.close();
    await receiver.close();
  });
  const h = useEmulator(options);

  const allow = (body: Record<string, unknown>) => h().call('PUT', '/_emulator/allowlist', body);

  it('sends one custom-webhook alert with exactly the spec fields, every 15 minutes of emulator time', async () => {
    expect((await allow({ webhook_hosts: [receiver.host] })).status).toBe(200);
    const sub = await subscribe(h(), {
      filter: { event_types: ['DATASOURCE_REGISTERED'] },
      destination: { type: 'CUSTOM_WEBHOOK', url: `${receiver.url}/hook` },
    });
    const p = await h().provider();
    clock.advance(MIN);
    await h().dataSource(p.id);
    await h().dataSource(p.id);
    await h().call('POST', '/_emulator/clock', { advance_ms: 13 * MIN });
    expect(receiver.received).toEqual([]);
    await h().call('POST', '/_emulator/clock', { advance_ms: MIN });
    const [req] = await receiver.waitFor(1);
    expect(req?.path).toBe('/hook');
    const body = req?.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'subscription_id',
        'subscription_name',
        'subscription_description',
        'number_of_events',
        'severities',
        'categories',
        'event_types',
        'triggered_at',
        'evaluated_at',
        'evaluation_period',
        'host',
        'dashboard_url',
      ].sort(),
    );
    expect(body).toMatchObject({
      subscription_id: sub.id,
      subscription_name: 'Data source watch',
      subscription_description: 'new data sources',
      number_of_events: 2,
      severities: ['INFO'],
      categories: ['INTEGRATIONS'],
      event_types: ['DATASOURCE_REGISTERED'],
      triggered_at: Date.parse('2026-06-01T00:01:00Z') / 1000,
      evaluated_at: Date.parse('2026-06-01T00:15:00Z') / 1000,
      evaluation_period: 15,
      host: new URL(h().emu.url).host,
    });
    expect(body.dashboard_url).toBe(`${h().emu.url}/_emulator/subscriptions/${sub.id}`);
    // Nothing new matched: no second alert; the next match gives one more.
    await h().call('POST', '/_emulator/clock', { advance_ms: 15 * MIN });
    await h().dataSource(p.id);
    await h().call('POST', '/_emulator/clock', { advance_ms: 60 * MIN });
    await receiver.waitFor(2);
    expect((receiver.received[1]?.body as { number_of_events: number }).number_of_events).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const got = await h().call('GET', `${SUBS}/${sub.id}`);
    expect(got.body.value).toMatchObject({
      last_outcome: 'SENT',
      last_evaluated_at: '2026-06-01T01:30:00.000Z',
    });
  });

  it('refuses a webhook outside the allowlist and records WEBHOOK_NOT_IN_ALLOWLIST', async () => {
    const sub = await subscribe(h(), { destination: { type: 'CHAT_WEBHOOK', url: `${receiver.url}/chat` } });
    await h().target();
    const r = await h().call('POST', `${SUBS}/${sub.id}/evaluate`, {});
    expect(r.body.value).toMatchObject({ outcome: 'NOT_IN_ALLOWLIST', number_of_events: 1 });
    expect(receiver.received).toEqual([]);
    const [e] = await eventsOfType(h(), 'WEBHOOK_NOT_IN_ALLOWLIST');
    expect(e).toMatchObject({
      category: 'SYSTEM',
      entity: 'NOTIFICATION',
      entity_id: sub.id,
      entity_name: 'Data source watch',
      error: { reason: 'WEBHOOK_NOT_IN_ALLOWLIST', metadata: { host: receiver.host } },
    });
    expect(JSON.stringify(e)).not.toContain('/chat');
  });

  it('mails allowlisted recipients through the SMTP server, stating the criteria', async () => {
    await allow({ email_domains: ['example.test'] });
    const sub = await subscribe(h(), {
      filter: { severities: ['INFO'], categories: ['INTEGRATIONS'] },
      destination: { type: 'EMAIL', recipients: ['ops@example.test', 'someone@elsewhere.test'] },
    });
    await h().target();
    await h().call('POST', '/_emulator/clock', { advance_ms: 15 * MIN });
    const [mail] = await sink.waitFor(1);
    expect(mail?.envelopeTo).toEqual(['ops@example.test']);
    expect(mail?.envelopeFrom).toBe('alerts@emulator.test');
    expect(mail?.mail.subject).toBe('Event Subscription Alert: Data source watch');
    const text = mail?.mail.text ?? '';
    expect(text).toContain('Number of events: 1');
    expect(text).toContain('Event types: DATASOURCE_REGISTERED');
    expect(text).toContain('Criteria: event types: any; severities: INFO; categories: INTEGRATIONS');
    expect(await eventsOfType(h(), 'EMAIL_SENT')).toEqual([
      expect.objectContaining({ entity_id: sub.id, severity: 'INFO', category: 'SYSTEM' }),
    ]);
    expect(await eventsOfType(h(), 'DOMAIN_NOT_IN_ALLOWLIST')).toEqual([
      expect.objectContaining({
        entity_id: sub.id,
        error: expect.objectContaining({ metadata: { 0: 'elsewhere.test' } }),
      }),
    ]);
  });

  it('opens a ticketing incident with the spec fields, and posts chat and team-chat messages', async () => {
    await allow({ webhook_hosts: ['127.0.0.1'] });
    await subscribe(h(), {
      name: 'Pushes',
      destination: {
        type: 'TICKETING',
        url: `${receiver.url}/incident`,
        urgency: '2',
        category: 'Security',
        subcategory: 'Access',
        assignment_group: 'IAM',
      },
    });
    await subscribe(h(), {
      name: 'Chat',
      destination: { type: 'CHAT_WEBHOOK', url: `${receiver.url}/chat` },
    });
    await subscribe(h(), {
      name: 'Team',
      destination: { type: 'TEAM_CHAT_WEBHOOK', url: `${receiver.url}/team` },
    });
    await h().target();
    await h().call('POST', '/_emulator/clock', { advance_ms: 15 * MIN });
    const got = await receiver.waitFor(3);
    const byPath = Object.fromEntries(got.map((r) => [r.path, r.body as Record<string, string>]));
    expect(Object.keys(byPath['/incident']!).sort()).toEqual(
      ['assignment_group', 'category', 'description', 'short_description', 'subcategory', 'urgency'].sort(),
    );
    expect(byPath['/incident']).toMatchObject({
      short_description: 'Event Subscription Alert: Pushes',
      urgency: '2',
      category: 'Security',
      subcategory: 'Access',
      assignment_group: 'IAM',
    });
    expect(byPath['/incident']?.description).toContain('Number of events: 1');
    expect(byPath['/incident']?.description).toContain('Criteria: event types: any');
    expect(byPath['/chat']?.text).toContain('Event Subscription Alert: Chat');
    expect(byPath['/team']).toMatchObject({
      '@type': 'MessageCard',
      title: 'Event Subscription Alert: Team',
    });
  });

  it('records a failed delivery when the receiver answers an error', async () => {
    await allow({ webhook_hosts: [receiver.host] });
    receiver.status = 500;
    const sub = await subscribe(h(), { destination: { type: 'CUSTOM_WEBHOOK', url: receiver.url } });
    await h().target();
    const r = await h().call('POST', `${SUBS}/${sub.id}/evaluate`, {});
    expect(r.body.value.outcome).toBe('FAILED');
    expect(await eventsOfType(h(), 'RULE_NOTIFICATION_FAILED')).toEqual([
      expect.objectContaining({
        severity: 'ERROR',
        error: expect.objectContaining({ reason: 'WEBHOOK_REFUSED' }),
      }),
    ]);
  });

  it('gives up on a receiver that never answers, within the delivery timeout', async () => {
    const silent = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await allow({ webhook_hosts: [`127.0.0.1:${port}`] });
      const sub = await subscribe(h(), {
        destination: { type: 'CUSTOM_WEBHOOK', url: `http://127.0.0.1:${port}/` },
      });
      await h().target();
      const r = await h().call('POST', `${SUBS}/${sub.id}/evaluate`, {});
      expect(r.body.value.outcome).toBe('FAILED');
      expect(await eventsOfType(h(), 'RULE_NOTIFICATION_FAILED')).toEqual([
        expect.objectContaining({ error: expect.objectContaining({ reason: 'WEBHOOK_UNREACHABLE' }) }),
      ]);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('manages subscriptions with bounds on every field', async () => {
    const dest = { type: 'CUSTOM_WEBHOOK', url: receiver.url };
    const sub = await subscribe(h(), { destination: dest });
    const put = await h().call('PUT', `${SUBS}/${sub.id}`, { name: 'Renamed', destination: dest });
    expect(put.body.value).toMatchObject({
      id: sub.id,
      name: 'Renamed',
      description: '',
      evaluation_period: 15,
    });
    expect(values(await h().call('GET', SUBS)).map((s) => s.name)).toEqual(['Renamed']);
    const bad = [
      [{ name: 'x'.repeat(257), destination: dest }, 'name'],
      [{ name: 'a', description: 'd'.repeat(1025), destination: dest }, 'description'],
      [{ name: 'a', destination: { type: 'SMOKE_SIGNAL' } }, 'destination.type'],
      [{ name: 'a', destination: { type: 'CUSTOM_WEBHOOK', url: 'ftp://x' } }, 'destination.url'],
      [{ name: 'a', filter: { severities: ['LOUD'] }, destination: dest }, 'filter.severities[0]'],
      [
        { name: 'a', destination: { type: 'EMAIL', recipients: Array(51).fill('a@b.test') } },
        'destination.recipients',
      ],
    ] as const;
    for (const [body, field] of bad) {
      const r = await h().call('POST', SUBS, body);
      expect(r.status, field).toBe(400);
      expect(violations(r.body)[0]?.field, field).toBe(field);
    }
    for (let i = 1; i < 100; i++) await subscribe(h(), { name: `s${i}`, destination: dest });
    const over = await h().call('POST', SUBS, { name: 'one too many', destination: dest });
    expect(over.status).toBe(400);
    expect(violations(over.body)[0]?.description).toMatch(/at most 100 subscriptions/);
    expect((await h().call('DELETE', `${SUBS}/${sub.id}`)).status).toBe(200);
    expect((await h().call('GET', `${SUBS}/${sub.id}`)).status).toBe(404);
    expect((await h().call('POST', `${SUBS}/${sub.id}/evaluate`, {})).status).toBe(404);
    const list = await h().call('PUT', '/_emulator/allowlist', { webhook_hosts: ['not a host!'] });
    expect(violations(list.body)[0]?.field).toBe('webhook_hosts[0]');
  });
});

describe('event subscriptions without an SMTP server', () => {
  const h = useEmulator();
  it('refuses an e-mail destination, saying how to configure one', async () => {
    const r = await h().call('POST', SUBS, {
      name: 'm',
      destination: { type: 'EMAIL', recipients: ['a@b.test'] },
    });
    expect(r.status).toBe(400);
    expect(violations(r.body)).toEqual([
      { field: 'destination.type', description: expect.stringContaining('--smtp') },
    ]);
  });
});
