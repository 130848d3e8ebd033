/**
 * A real SMTP server for tests (smtp-server on port 0, no login, no STARTTLS) that parses each
 * message it receives with mailparser, so a test reads what a mail client would show.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { until } from '../testing/until.js';

/** A received message: the envelope and the parsed mail. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  mail: ParsedMail;
}

/** A running SMTP sink. */
export interface SmtpSink {
  host: string;
  port: number;
  received: ReceivedMail[];
  /** Waits (bounded) until `count` messages arrived, and returns them. */
  waitFor(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** Starts an SMTP sink on 127.0.0.1, port 0. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const from = session.envelope.mailFrom;
          received.push({
            envelopeFrom: from === false ? '' : from.address,
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    received,
    async waitFor(count) {
      await until(`${count} mail(s) to arrive`, () => received.length >= count);
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
