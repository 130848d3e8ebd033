/**
 * `/_emulator/faults` (admin): make the next N calls matching a method and path pattern fail with a
 * status and code (e.g. 503, or 429 `ResourceExhaused` with `Retry-After`), wait first, or lose
 * their connection. Calls to `/_emulator/...` are never faulted.
 *
 * Every API call is matched against the registered faults one by one, so their number is capped
 * (`limits.maxFaults`), and so are a pattern's and a message's length.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, invalidArgument, isErrorCode, notFound } from '../errors.js';
import type { FaultSpec } from '../faults.js';
import type { Violation } from '@oaakit/core';

/** Longest path pattern, in characters: longer than any path the emulator serves (an id is at most 100). */
export const MAX_FAULT_PATH_LENGTH = 2048;
/** Longest error message a fault answers with, in characters. */
export const MAX_FAULT_MESSAGE_LENGTH = 2048;

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function parseFault(body: unknown): FaultSpec {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badField('body', 'must be a JSON object');
  const b = body as Record<string, unknown>;
  const problems: Violation[] = [];
  const check = (ok: boolean, field: string, description: string): void => {
    if (!ok) problems.push({ field, description });
  };
  check(
    b.method === undefined || (typeof b.method === 'string' && b.method !== ''),
    'method',
    'must be an HTTP method or *',
  );
  check(
    b.path === undefined ||
      (typeof b.path === 'string' && b.path !== '' && b.path.length <= MAX_FAULT_PATH_LENGTH),
    'path',
    `must be a path pattern of at most ${MAX_FAULT_PATH_LENGTH} characters; * matches any characters`,
  );
  check(b.count === undefined || isInt(b.count, 1, 1_000_000), 'count', 'must be an integer from 1');
  check(
    b.status === undefined || isInt(b.status, 400, 599),
    'status',
    'must be an HTTP error status (400-599)',
  );
  check(
    b.code === undefined || isErrorCode(b.code),
    'code',
    'must be a code such as Unavailable, ResourceExhaused, Internal',
  );
  check(
    b.message === undefined ||
      (typeof b.message === 'string' && b.message.length <= MAX_FAULT_MESSAGE_LENGTH),
    'message',
    `must be a string of at most ${MAX_FAULT_MESSAGE_LENGTH} characters`,
  );
  check(
    b.retry_after_s === undefined || isInt(b.retry_after_s, 0, 86_400),
    'retry_after_s',
    'must be whole seconds',
  );
  check(
    b.latency_ms === undefined || isInt(b.latency_ms, 0, 600_000),
    'latency_ms',
    'must be milliseconds (at most 600000)',
  );
  check(b.drop === undefined || typeof b.drop === 'boolean', 'drop', 'must be a boolean');
  check(
    b.status !== undefined || b.code !== undefined || b.latency_ms !== undefined || b.drop === true,
    'body',
    'give status, code, latency_ms or drop',
  );
  if (problems.length > 0) throw invalidArgument(problems);
  const spec: FaultSpec = {
    method: typeof b.method === 'string' ? b.method.toUpperCase() : '*',
    path: typeof b.path === 'string' ? b.path : '*',
    count: typeof b.count === 'number' ? b.count : 1,
  };
  if (typeof b.status === 'number') spec.status = b.status;
  if (isErrorCode(b.code)) spec.code = b.code;
  if (typeof b.message === 'string') spec.message = b.message;
  if (typeof b.retry_after_s === 'number') spec.retry_after_s = b.retry_after_s;
  if (typeof b.latency_ms === 'number') spec.latency_ms = b.latency_ms;
  if (b.drop === true) spec.drop = true;
  return spec;
}

/** Registers the fault injection routes. */
export function registerFaultRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/faults', allow(ADMIN), (req) => {
    const spec = parseFault(req.body);
    const max = ctx.limits.maxFaults;
    if (ctx.faults.size >= max)
      throw badField(
        'body',
        `at most ${max} faults may be registered at once: remove one first (DELETE /_emulator/faults/{id}, or DELETE /_emulator/faults for all)`,
      );
    return { value: ctx.faults.add(spec) };
  });
  app.get('/_emulator/faults', allow(ADMIN), () => ({ values: ctx.faults.list() }));
  app.delete('/_emulator/faults', allow(ADMIN), () => {
    ctx.faults.clear();
    return {};
  });
  app.delete<{ Params: { id: string } }>('/_emulator/faults/:id', allow(ADMIN), (req) => {
    if (!ctx.faults.remove(req.params.id)) throw notFound('fault', req.params.id);
    return {};
  });
}
