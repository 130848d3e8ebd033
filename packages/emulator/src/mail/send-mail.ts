/**
 * Mail out of the emulator: subscription alerts (and notification-template test mails) go to the
 * SMTP server named in the emulator's options (`smtp`, or `--smtp URL` on the command lines).
 * Sent with nodemailer (Node >= 20, no native code); one connection per message, every phase bounded
 * by `timeoutMs`, so an unreachable server delays a delivery by at most that long.
 */
import { createTransport } from 'nodemailer';

/** The SMTP server the emulator sends mail through. No authentication: a local or relay server. */
export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the first byte (SMTPS, usually port 465); otherwise STARTTLS when offered. */
  secure?: boolean;
  /** Sender address; default {@link DEFAULT_MAIL_FROM}. */
  from?: string;
}

/** One message to send. */
export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  html?: string;
}

/** What the server accepted. */
export interface MailResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

/** Sender address when the options name none. */
export const DEFAULT_MAIL_FROM = 'oaa-emulator@localhost';
/** Default bound on connecting, greeting and each SMTP command: 10 seconds. */
export const DEFAULT_SMTP_TIMEOUT_MS = 10_000;
/** Most recipients of one message. */
export const MAX_MAIL_RECIPIENTS = 50;

function addresses(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((a) => (typeof a === 'string' ? a : String((a as { address?: unknown }).address)));
}

/**
 * Sends one message; rejects with nodemailer's error (code `ECONNECTION`, `ETIMEDOUT`, `EENVELOPE`, ...)
 * when the server cannot be reached or refuses every recipient.
 *
 * @example
 * await sendMail({ host: '127.0.0.1', port: 2525 }, { to: ['ops@example.com'], subject: 'Hi', text: 'Hello' });
 */
export async function sendMail(
  smtp: SmtpOptions,
  message: MailMessage,
  options: { timeoutMs?: number } = {},
): Promise<MailResult> {
  if (message.to.length === 0) throw new RangeError('a message needs at least one recipient');
  if (message.to.length > MAX_MAIL_RECIPIENTS)
    throw new RangeError(`a message has at most ${MAX_MAIL_RECIPIENTS} recipients`);
  const timeout = options.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure ?? false,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
    // A local test server's certificate is usually self-signed; the emulator is a development tool.
    tls: { rejectUnauthorized: false },
  });
  try {
    const info = await transport.sendMail({
      from: smtp.from ?? DEFAULT_MAIL_FROM,
      to: [...message.to],
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
    });
    return {
      messageId: info.messageId,
      accepted: addresses(info.accepted),
      rejected: addresses(info.rejected),
    };
  } finally {
    transport.close();
  }
}

/**
 * Reads `--smtp URL`: `smtp://HOST:PORT` (STARTTLS when offered) or `smtps://HOST:PORT` (TLS), with an
 * optional `?from=ADDRESS`. Credentials in the URL are refused: the emulator sends without login.
 */
export function parseSmtpUrl(text: string): SmtpOptions {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`--smtp must be a URL such as smtp://127.0.0.1:2525, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new RangeError(`--smtp must start with smtp:// or smtps://, not ${url.protocol}//`);
  if (url.username !== '' || url.password !== '')
    throw new RangeError('--smtp must not carry credentials: the emulator sends without login');
  if (url.hostname === '') throw new RangeError('--smtp needs a host');
  const secure = url.protocol === 'smtps:';
  const port = url.port === '' ? (secure ? 465 : 25) : Number(url.port);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const from = url.searchParams.get('from');
  return { host, port, secure, ...(from === null || from === '' ? {} : { from }) };
}
