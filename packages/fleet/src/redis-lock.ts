/**
 * The lock of a data source in Redis: `SET key holder NX PX lease`, renewed every third of the lease
 * while the run lives, released only by its holder (Lua compares the token). A worker that dies stops
 * renewing, so its lock ends with its lease and another worker takes the data source over; a worker
 * that was only paused past its lease finds the state commit refused (see `redis-state-backend.ts`).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { OaaError } from '@oaakit/core';
import { stateLocked } from '@oaakit/runner';
import type { BackendLockOptions, HeldLock, LockHolder } from '@oaakit/runner';

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The lock value: the holder as JSON (its token makes it unique). */
export function parseHolder(text: string | null): LockHolder | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as LockHolder;
  } catch {
    return undefined;
  }
}

/** The hints of a refusal of a data source's lock. */
const DATA_SOURCE_HINTS = [
  'another worker runs this data source; the lock ends with its run, or with its lease when that worker died',
];

function lockedError(
  subject: string,
  key: string,
  holder: LockHolder | undefined,
  hints: string[],
): OaaError {
  return stateLocked(subject, holder, { details: { lockKey: key }, hints });
}

/**
 * Takes the lock at `key`, waiting up to `options.waitMs`; throws `STATE_LOCKED` naming the holder,
 * with `options.hints` (by default, those of a data source's lock).
 */
export async function acquireRedisLock(
  redis: Redis,
  key: string,
  options: BackendLockOptions & { leaseMs: number; pollMs?: number; hints?: string[] },
): Promise<HeldLock> {
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    since: new Date().toISOString(),
    ...(options.owner ? { owner: options.owner } : {}),
    token: randomBytes(8).toString('hex'),
    leaseMs: options.leaseMs,
  };
  const value = JSON.stringify(holder);
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    options.signal?.throwIfAborted();
    if ((await redis.set(key, value, 'PX', options.leaseMs, 'NX')) === 'OK') break;
    if (Date.now() >= deadline) {
      const holding = parseHolder(await redis.get(key));
      throw lockedError(options.subject, key, holding, options.hints ?? DATA_SOURCE_HINTS);
    }
    await sleep(Math.min(options.pollMs ?? 200, Math.max(1, deadline - Date.now())));
  }
  const timer = setInterval(
    () => void redis.eval(RENEW, 1, key, value, options.leaseMs).catch(() => undefined),
    Math.max(10, Math.floor(options.leaseMs / 3)),
  );
  timer.unref();
  let released: Promise<void> | undefined;
  return {
    location: key,
    holder,
    release: () =>
      (released ??= (async () => {
        clearInterval(timer);
        // Unreleased (Redis away), the lock still ends with its lease.
        await redis.eval(RELEASE, 1, key, value).catch(() => undefined);
      })()),
  };
}
