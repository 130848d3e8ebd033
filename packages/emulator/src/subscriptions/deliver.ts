/**
 * Sends one alert to its destination, after the allowlist check, and records what happened:
 * EMAIL_SENT, DOMAIN_NOT_IN_ALLOWLIST (recipients of other domains are left out),
 * WEBHOOK_NOT_IN_ALLOWLIST (nothing is sent), or RULE_NOTIFICATION_FAILED (the SMTP server or the
 * receiver failed, did not answer within the delivery timeout, or answered other than 2xx).
 * Webhook redirects are not followed (a redirect could leave the allowlist). Events name the
 * receiver's host only: a webhook URL can itself be a secret.
 */
import type { EmulatorContext } from '../context.js';
import { sendMail } from '../mail/send-mail.js';
import { recordEvent, type EventInput } from '../store/events.js';
import {
  chatBody,
  customWebhookBody,
  emailMessage,
  teamChatBody,
  ticketBody,
  type AlertSummary,
} from './alert.js';
import type { DeliveryOutcome, Subscription } from './subscription-schema.js';
import { emailAllowed, readAllowlist, webhookAllowed } from './subscription-store.js';

/** What delivery needs besides the context. */
export interface DeliveryOptions {
  /** The emulator's base URL, for `host` and `dashboard_url`. */
  baseUrl: string;
  /** Bound on one delivery (connect, send, answer). */
  timeoutMs: number;
}

function event(
  ctx: EmulatorContext,
  sub: Subscription,
  e: Pick<EventInput, 'event_type' | 'severity' | 'name' | 'message' | 'error'>,
): void {
  recordEvent(ctx.db, {
    timestamp: ctx.clock.iso(),
    category: 'SYSTEM',
    provider_id: null,
    entity: 'NOTIFICATION',
    entity_id: sub.id,
    entity_name: sub.name,
    ...e,
  });
}

function failed(ctx: EmulatorContext, sub: Subscription, reason: string, message: string): DeliveryOutcome {
  event(ctx, sub, {
    event_type: 'RULE_NOTIFICATION_FAILED',
    severity: 'ERROR',
    name: 'Subscription alert failed',
    message: `The alert of subscription ${sub.name} could not be delivered: ${message}`,
    error: {
      message,
      metadata: {},
      reason,
      resolution: 'Check the destination and the emulator options',
      request_id: '',
    },
  });
  return 'FAILED';
}

async function deliverEmail(
  ctx: EmulatorContext,
  sub: Subscription,
  recipients: readonly string[],
  s: AlertSummary,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const list = readAllowlist(ctx.db);
  const allowed = recipients.filter((r) => emailAllowed(list, r));
  const refused = [
    ...new Set(recipients.filter((r) => !emailAllowed(list, r)).map((r) => r.split('@').pop() ?? '')),
  ];
  if (refused.length > 0) {
    event(ctx, sub, {
      event_type: 'DOMAIN_NOT_IN_ALLOWLIST',
      severity: 'WARNING',
      name: 'Domain not in allowlist',
      message: `Subscription ${sub.name}: no mail sent to ${refused.join(', ')}, not in the e-mail domain allowlist`,
      error: {
        message: 'E-mail domain not in the allowlist',
        metadata: Object.fromEntries(refused.map((d, i) => [String(i), d])),
        reason: 'DOMAIN_NOT_IN_ALLOWLIST',
        resolution: 'Add the domain to email_domains of /_emulator/allowlist',
        request_id: '',
      },
    });
  }
  if (allowed.length === 0) return 'NOT_IN_ALLOWLIST';
  if (ctx.smtp === undefined)
    return failed(
      ctx,
      sub,
      'SMTP_NOT_CONFIGURED',
      'the emulator was started without an SMTP server (--smtp)',
    );
  try {
    await sendMail(ctx.smtp, { to: allowed, ...emailMessage(sub, s) }, { timeoutMs: options.timeoutMs });
  } catch (err) {
    return failed(ctx, sub, 'SMTP_DELIVERY_FAILED', (err as Error).message);
  }
  event(ctx, sub, {
    event_type: 'EMAIL_SENT',
    severity: 'INFO',
    name: 'E-mail sent',
    message: `Subscription ${sub.name}: alert of ${s.count} event(s) mailed to ${allowed.length} recipient(s)`,
    error: null,
  });
  return refused.length > 0 ? 'NOT_IN_ALLOWLIST' : 'SENT';
}

async function deliverWebhook(
  ctx: EmulatorContext,
  sub: Subscription,
  url: string,
  body: unknown,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const host = new URL(url).host;
  if (!webhookAllowed(readAllowlist(ctx.db), url)) {
    event(ctx, sub, {
      event_type: 'WEBHOOK_NOT_IN_ALLOWLIST',
      severity: 'WARNING',
      name: 'Webhook not in allowlist',
      message: `Subscription ${sub.name}: no alert sent to ${host}, not in the webhook allowlist`,
      error: {
        message: 'Webhook host not in the allowlist',
        metadata: { host },
        reason: 'WEBHOOK_NOT_IN_ALLOWLIST',
        resolution: 'Add the host to webhook_hosts of /_emulator/allowlist',
        request_id: '',
      },
    });
    return 'NOT_IN_ALLOWLIST';
  }
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'oaa-emulator' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await res.body?.cancel();
    if (res.status < 200 || res.status > 299)
      return failed(ctx, sub, 'WEBHOOK_REFUSED', `${host} answered HTTP ${res.status}`);
  } catch (err) {
    return failed(ctx, sub, 'WEBHOOK_UNREACHABLE', `${host}: ${(err as Error).message}`);
  }
  return 'SENT';
}

/** Delivers the alert `s` of `sub`. */
export function deliverAlert(
  ctx: EmulatorContext,
  sub: Subscription,
  s: AlertSummary,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const d = sub.destination;
  switch (d.type) {
    case 'EMAIL':
      return deliverEmail(ctx, sub, d.recipients, s, options);
    case 'CHAT_WEBHOOK':
      return deliverWebhook(ctx, sub, d.url, chatBody(sub, s), options);
    case 'TEAM_CHAT_WEBHOOK':
      return deliverWebhook(ctx, sub, d.url, teamChatBody(sub, s), options);
    case 'TICKETING':
      return deliverWebhook(ctx, sub, d.url, ticketBody({ ...sub, destination: d }, s), options);
    case 'CUSTOM_WEBHOOK':
      return deliverWebhook(ctx, sub, d.url, customWebhookBody(sub, s, options.baseUrl), options);
  }
}
