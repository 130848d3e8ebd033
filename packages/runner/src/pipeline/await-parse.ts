/**
 * After a push: wait (bounded) for the service's verdict on it, the data source's parse status and
 * the push's OAA_PUSH event, so the run result says whether the service parsed the payload and
 * which warnings its event carries. A push the service reports as failed (data source status
 * FAILED, or an OAA_PUSH event of severity ERROR) fails the run with `PAYLOAD_REFUSED` before the
 * state is committed, so the next run pushes again.
 *
 * The event of this push is the newest OAA_PUSH event of the data source stamped at or after the
 * data source's `updated_at` (the service's time of the push) when the service reports one, else the
 * newest one. When the service has no events API for the key (401/403/404), the outcome says
 * `UNAVAILABLE` and the run goes on: the push itself succeeded.
 */
import { ServiceError, type Client } from '@oaakit/client';
import { OaaError, type ServiceEvent } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';

/** How long to wait for the verdict. */
export interface AwaitParseOptions {
  /** Give up after this long (the outcome is then `TIMED_OUT`, not a failure); default 30 s. */
  timeoutMs?: number;
  /** Pause between looks; default 500 ms. */
  pollMs?: number;
}

/** What the service said about the push. */
export interface ParseOutcome {
  /** SUCCESS, WARNING (parsed with warnings), FAILED, TIMED_OUT, or UNAVAILABLE (no events API). */
  status: 'SUCCESS' | 'WARNING' | 'FAILED' | 'TIMED_OUT' | 'UNAVAILABLE';
  /** The data source's `status` as last read (e.g. SUCCESS, FAILED), if the service reports one. */
  dataSourceStatus: string | null;
  /** The push's OAA_PUSH event, when found. */
  event: {
    id: string;
    timestamp: string;
    severity: string;
    message: string | null;
    warnings: string[];
  } | null;
}

const TERMINAL = new Set(['SUCCESS', 'FAILED', 'ERROR']);

function eventView(e: ServiceEvent): NonNullable<ParseOutcome['event']> {
  return {
    id: e.id,
    timestamp: e.timestamp,
    severity: e.severity,
    message: e.message ?? null,
    warnings: Object.values(e.error?.metadata ?? {}),
  };
}

function unavailable(error: unknown): boolean {
  return error instanceof ServiceError && [401, 403, 404, 501].includes(error.status);
}

async function pushEvent(
  client: Client,
  dataSourceId: string,
  since: string | undefined,
  signal: AbortSignal | undefined,
): Promise<ServiceEvent | undefined> {
  const filter = `event_type eq "OAA_PUSH" and entity_id eq ${JSON.stringify(dataSourceId)}`;
  let newest: ServiceEvent | undefined;
  for await (const e of client.events.list({ filter, ...(since === undefined ? {} : { since }), signal }))
    newest = e;
  return newest;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), {
      once: true,
    });
  });
}

/**
 * Waits for the parse outcome of the push just made to `dataSourceId`.
 *
 * @example
 * const outcome = await awaitParse({ client, providerId, dataSourceId, options: { timeoutMs: 10_000 } });
 */
export async function awaitParse(args: {
  client: Client;
  providerId: string;
  dataSourceId: string;
  options?: AwaitParseOptions;
  signal?: AbortSignal | undefined;
}): Promise<ParseOutcome> {
  const { client, providerId, dataSourceId, signal } = args;
  const timeoutMs = args.options?.timeoutMs ?? 30_000;
  const pollMs = args.options?.pollMs ?? 500;
  const deadline = Date.now() + timeoutMs;
  let dataSourceStatus: string | null = null;
  for (;;) {
    try {
      const ds = await client.dataSources.get({ providerId, dataSourceId, signal });
      dataSourceStatus = typeof ds.status === 'string' ? ds.status : null;
      const updatedAt = typeof ds['updated_at'] === 'string' ? ds['updated_at'] : undefined;
      const settled = dataSourceStatus === null || TERMINAL.has(dataSourceStatus);
      const event = settled ? await pushEvent(client, dataSourceId, updatedAt, signal) : undefined;
      if (event) {
        const failed = event.severity === 'ERROR' || dataSourceStatus === 'FAILED';
        const status = failed ? 'FAILED' : event.severity === 'WARNING' ? 'WARNING' : 'SUCCESS';
        return { status, dataSourceStatus, event: eventView(event) };
      }
      if (dataSourceStatus === 'FAILED') return { status: 'FAILED', dataSourceStatus, event: null };
    } catch (error) {
      if (unavailable(error)) return { status: 'UNAVAILABLE', dataSourceStatus, event: null };
      throw error;
    }
    if (Date.now() + pollMs > deadline) return { status: 'TIMED_OUT', dataSourceStatus, event: null };
    await sleep(pollMs, signal);
  }
}

/** The error of a push the service reported as failed after accepting it. */
export function parseFailure(
  where: { connectorId: string; provider: string; dataSource: string },
  outcome: ParseOutcome,
): OaaError {
  const reasons = outcome.event?.warnings ?? [];
  return new OaaError(
    `connector "${where.connectorId}": the service reports the push to provider "${where.provider}", data source "${where.dataSource}" as failed${outcome.event?.message ? `: ${outcome.event.message}` : ''}`,
    {
      code: RUNNER_ERROR_CODES.PAYLOAD_REFUSED,
      details: { parse: outcome, violations: reasons.map((description) => ({ field: '', description })) },
      hints: ['the state is unchanged: the next run pushes again', ...reasons.slice(0, 5)],
    },
  );
}
