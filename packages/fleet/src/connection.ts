/**
 * ioredis connections to the fleet's Redis. BullMQ workers need `maxRetriesPerRequest: null` (a
 * blocking command must wait across reconnects rather than fail); every connection reconnects with
 * a capped backoff, so a Redis restart is ridden out rather than ending the process.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { OaaError } from '@oaakit/core';
import { FLEET_ERROR_CODES } from './fleet-codes.js';
import type { RedisTarget } from './redis-url.js';
import type { RunJobData } from './run-jobs.js';

/** Prefix of every key the fleet writes (BullMQ's queues and the state). */
export const KEY_PREFIX = 'oaa';
/** The queue of connector runs. */
export const RUNS_QUEUE = 'runs';

/**
 * The runs queue on a connection, as the scheduler (which adds jobs), the workers (which read its
 * counts for their metrics) and `oaa jobs` open it.
 */
export function openRunsQueue(redis: Redis): Queue<RunJobData> {
  return new Queue<RunJobData>(RUNS_QUEUE, { connection: redis, prefix: KEY_PREFIX });
}

/** ioredis options for a target. */
export function redisOptions(target: RedisTarget): RedisOptions {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    // rediss://: TLS with the system's CAs (add one with NODE_EXTRA_CA_CERTS), host name checked.
    ...(target.tls ? { tls: { servername: target.host } } : {}),
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    connectionName: 'oaakit',
  };
}

/**
 * A new connection to the target, once it answers PING; when it does not within `timeoutMs`, closes
 * it and throws `REDIS_UNAVAILABLE`.
 */
export async function openRedis(target: RedisTarget, timeoutMs = 10_000): Promise<Redis> {
  const redis = new Redis(redisOptions(target));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return redis;
  } catch (cause) {
    redis.disconnect();
    throw new OaaError(`Redis at ${target.display} is not available: ${(cause as Error).message}`, {
      code: FLEET_ERROR_CODES.REDIS_UNAVAILABLE,
      retryable: true,
      cause,
      details: { queue: target.display },
      hints: [
        'check that Redis runs and the host and port are right',
        'a password comes from OAA_REDIS_PASSWORD or the keychain entry oaakit-redis/redis://HOST:PORT',
      ],
    });
  } finally {
    clearTimeout(timer);
  }
}
