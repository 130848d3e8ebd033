import { OaaError } from '@oaakit/core';
import type { Violation } from '@oaakit/core';

/** HTTP statuses that mean "try again later" whatever the body says. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** The service's code for "wait, then retry" (spelled as the service spells it). */
export const RESOURCE_EXHAUSTED = 'ResourceExhaused';

/** What the client knows about the request that failed; never carries credentials. */
export interface RequestInfo {
  method: string;
  /** Path and query, relative to the base URL. */
  path: string;
}

/** Everything a service error body and its response carry, parsed. */
export interface ServiceErrorInit extends RequestInfo {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  timestamp?: string | undefined;
  violations: Violation[];
  reason?: string | undefined;
  resolution?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Seconds or an HTTP date, from the `Retry-After` header. */
  retryAfter?: string | undefined;
}

/**
 * The service answered with an error status. `code` is the service's own code (`InvalidArgument`,
 * `NotFound`, `ResourceExhaused`, ...) or `HTTP_<status>` when the body had none.
 *
 * @example
 * try { await client.providers.get(id) } catch (e) { if (e instanceof ServiceError && e.status === 404) ... }
 */
export class ServiceError extends OaaError<string> {
  readonly status: number;
  readonly requestId: string | undefined;
  readonly timestamp: string | undefined;
  /** The `field_violations` of the bad-request detail. */
  readonly violations: Violation[];
  /** The user-facing detail's `reason`, e.g. `INVALID_ARGUMENTS`. */
  readonly reason: string | undefined;
  readonly resolution: string | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  readonly method: string;
  readonly path: string;
  readonly retryAfter: string | undefined;

  constructor(init: ServiceErrorInit) {
    const idPart = init.requestId === undefined ? '' : ` (request_id ${init.requestId})`;
    super(`${init.method} ${init.path} failed with ${init.status} ${init.code}: ${init.message}${idPart}`, {
      code: init.code,
      retryable: RETRYABLE_STATUS.has(init.status) || init.code === RESOURCE_EXHAUSTED,
      details: {
        status: init.status,
        requestId: init.requestId,
        method: init.method,
        path: init.path,
        violations: init.violations,
        reason: init.reason,
        resolution: init.resolution,
        metadata: init.metadata,
      },
      hints: init.resolution === undefined ? [] : [init.resolution],
    });
    this.name = 'ServiceError';
    this.status = init.status;
    this.requestId = init.requestId;
    this.timestamp = init.timestamp;
    this.violations = init.violations;
    this.reason = init.reason;
    this.resolution = init.resolution;
    this.metadata = init.metadata;
    this.method = init.method;
    this.path = init.path;
    this.retryAfter = init.retryAfter;
  }
}

/** The request never got an answer: connection refused or reset, DNS failure, TLS failure. */
export function networkError(info: RequestInfo, cause: unknown): OaaError {
  const causeCode = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const why = typeof causeCode === 'string' ? causeCode : cause instanceof Error ? cause.message : 'unknown';
  return new OaaError(`${info.method} ${info.path}: network error (${why})`, {
    code: 'NETWORK_ERROR',
    retryable: true,
    cause,
    details: { method: info.method, path: info.path, reason: why },
    hints: ['check that the service URL is right and reachable'],
  });
}

/** The request took longer than `timeoutMs`; the server may still have processed it. */
export function timeoutError(info: RequestInfo, timeoutMs: number): OaaError {
  return new OaaError(`${info.method} ${info.path}: no answer within ${timeoutMs} ms`, {
    code: 'TIMEOUT',
    retryable: true,
    details: { method: info.method, path: info.path, timeoutMs },
    hints: ['raise timeoutMs if the service is slow for large requests'],
  });
}

/** The caller's AbortSignal fired. */
export function abortedError(info: RequestInfo, cause: unknown): OaaError {
  return new OaaError(`${info.method} ${info.path}: aborted`, {
    code: 'ABORTED',
    cause,
    details: { ...info },
  });
}

/** Whether an error is worth retrying under the client's policy. */
export function isRetryable(error: unknown): boolean {
  return error instanceof OaaError && error.retryable;
}
