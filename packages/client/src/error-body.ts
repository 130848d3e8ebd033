import type { Violation } from '@oaakit/core';
import { ServiceError } from './errors.js';
import type { RequestInfo } from './errors.js';

/** Turns a secret-bearing string into one safe to show; identity when there is no secret. */
export type Scrub = (text: string) => string;

interface ParseInput {
  info: RequestInfo;
  status: number;
  headers: Headers;
  /** The raw response body; may be empty or not JSON (a proxy's HTML page). */
  text: string;
  scrub: Scrub;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function violationsOf(detail: Record<string, unknown>, scrub: Scrub): Violation[] {
  const list = detail['field_violations'];
  if (!Array.isArray(list)) return [];
  return list.map((v: unknown) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return { field: scrub(str(o['field']) ?? ''), description: scrub(str(o['description']) ?? '') };
  });
}

/**
 * Builds a ServiceError from an error response. Details are recognised by their fields
 * (`field_violations`, `reason`) rather than by `@type` names, which the spec does not fix.
 */
export function parseServiceError({ info, status, headers, text, scrub }: ParseInput): ServiceError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: keep the status and a bounded piece of the text as the message
  }
  const violations: Violation[] = [];
  let reason: string | undefined;
  let resolution: string | undefined;
  let metadata: Record<string, unknown> | undefined;
  let detailMessage: string | undefined;
  const details = Array.isArray(body['details']) ? (body['details'] as unknown[]) : [];
  for (const d of details) {
    if (d === null || typeof d !== 'object') continue;
    const detail = d as Record<string, unknown>;
    violations.push(...violationsOf(detail, scrub));
    reason ??= str(detail['reason']);
    resolution ??= str(detail['resolution']);
    detailMessage ??= str(detail['message']);
    const md = detail['metadata'];
    if (metadata === undefined && md !== null && typeof md === 'object')
      metadata = md as Record<string, unknown>;
  }
  const message = str(body['message']) ?? detailMessage ?? (text.trim().slice(0, 200) || `HTTP ${status}`);
  return new ServiceError({
    ...info,
    status,
    code: str(body['code']) ?? `HTTP_${status}`,
    message: scrub(message),
    requestId: str(body['request_id']) ?? headers.get('x-request-id') ?? undefined,
    timestamp: str(body['timestamp']),
    violations,
    reason: reason === undefined ? undefined : scrub(reason),
    resolution: resolution === undefined ? undefined : scrub(resolution),
    metadata:
      metadata === undefined
        ? undefined
        : (JSON.parse(scrub(JSON.stringify(metadata))) as Record<string, unknown>),
    retryAfter: headers.get('retry-after') ?? undefined,
  });
}
