/** How the kit reads the errors of a run: the cause chain, credential refusals, and their texts. */
import { isOaaError } from '@oaakit/core';

/** The code of a source's refusal of the connector's credentials (`ctx.http` on 401 or 403). */
export const SOURCE_CREDENTIALS_REFUSED = 'SOURCE_CREDENTIALS_REFUSED';

/** `error` and its causes, outermost first (at most 20; an `AggregateError`'s errors included). */
export function errorChain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && out.length < 20) {
    const next = queue.shift();
    if (next === undefined || out.includes(next)) continue;
    out.push(next);
    if (next instanceof AggregateError) queue.push(...(next.errors as unknown[]));
    if (next instanceof Error && next.cause !== undefined) queue.push(next.cause);
  }
  return out;
}

function statusOf(details: unknown): unknown {
  return typeof details === 'object' && details !== null
    ? (details as Record<string, unknown>)['status']
    : undefined;
}

/**
 * Whether `error` is a refusal of the credentials: some `OaaError` of its cause chain has code
 * `SOURCE_CREDENTIALS_REFUSED` (itself, or as the `details.causeCode` of a runner error wrapping
 * it), or a `details.status` (its own or its wrapped cause's) of 401 or 403. A raw exception (a
 * `TypeError` of code that read a refusal as data) is not.
 */
export function isCredentialRefusal(error: unknown): boolean {
  return errorChain(error).some((e) => {
    if (!isOaaError(e)) return false;
    if (e.code === SOURCE_CREDENTIALS_REFUSED || e.details['causeCode'] === SOURCE_CREDENTIALS_REFUSED)
      return true;
    const status = statusOf(e.details) ?? statusOf(e.details['cause']);
    return status === 401 || status === 403;
  });
}

/** Whether `error` (or a cause) is an `OaaError` whose message or details carry `status`. */
export function carriesStatus(error: unknown, status: number): boolean {
  const pattern = new RegExp(`\\b${status}\\b`);
  return errorChain(error).some(
    (e) =>
      isOaaError(e) &&
      (pattern.test(e.message) ||
        statusOf(e.details) === status ||
        statusOf(e.details['cause']) === status ||
        pattern.test(JSON.stringify(e.details))),
  );
}

/** The code of a request a recorded source has no answer for (`replayFetch`). */
export const REPLAY_UNMATCHED = 'REPLAY_UNMATCHED';

/** Whether `error` (or a cause) is a request the recording has no answer for. */
export function isUnrecorded(error: unknown): boolean {
  return errorChain(error).some(
    (e) => isOaaError(e) && (e.code === REPLAY_UNMATCHED || e.details['causeCode'] === REPLAY_UNMATCHED),
  );
}

/** Whether `error` is the runner's cancelled outcome. */
export function isAborted(error: unknown): boolean {
  return isOaaError(error) && error.code === 'ABORTED';
}

function nameOf(e: unknown): string {
  return e instanceof Error ? e.name : typeof e;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * `error` in a few words: `CHECK_FAILED: <message>`, and when the chain ends in something other
 * than an `OaaError`, what that was (`a raw TypeError: ...`).
 */
export function describeError(error: unknown): string {
  const chain = errorChain(error);
  const first = chain[0];
  const last = chain[chain.length - 1];
  if (!isOaaError(first)) return `a raw ${nameOf(first)}: ${messageOf(first)}`;
  const head = `${first.code}: ${first.message}`;
  if (chain.length > 1 && !isOaaError(last)) return `${head} (from a raw ${nameOf(last)})`;
  return head;
}

/** Every text of `error` a user may see: messages, details, hints, of the whole chain. */
export function errorTexts(error: unknown): string[] {
  const out: string[] = [];
  for (const e of errorChain(error)) {
    if (e instanceof Error) {
      out.push(e.message);
      if (e.stack !== undefined) out.push(e.stack);
    } else {
      out.push(safeJson(e));
    }
    if (isOaaError(e)) {
      out.push(safeJson(e.details));
      out.push(...e.hints);
    }
  }
  return out;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
