/**
 * The flags every fleet command takes (`--queue`, or `--queue-file`), and the Redis target they name,
 * with the password from the URL, the environment or the OS keychain (see `resolveRedisTarget`).
 * Loaded lazily: oclif imports every command at start-up, and commands that do not use a fleet must
 * not load Redis code.
 */
import { OaaError, isOaaError } from '@oaakit/core';
import type { RedisTarget } from '@oaakit/fleet';
import { secretFlags } from '../secret-flags.js';

/** Whether a queue URL carries a password (or, when it is not a URL at all, looks like it might). */
function carriesPassword(text: string): boolean {
  try {
    return new URL(text).password !== '';
  } catch {
    return /^[^:/]+:\/\/[^/@]*:[^/@]*@/.test(text);
  }
}

/** `--queue` and `--queue-file`: the Redis of the fleet. */
export const queueFlags = secretFlags(
  {
    name: 'queue',
    env: 'OAA_QUEUE_URL',
    exposes: (url) => (carriesPassword(url) ? 'a password (in the URL)' : undefined),
    alternatives: ['a URL without the password and OAA_REDIS_PASSWORD'],
  },
  {
    description:
      'Redis of the fleet: redis://HOST:PORT[/DB] or rediss:// for TLS (default: OAA_QUEUE_URL); the password comes from the URL, else OAA_REDIS_PASSWORD, else the keychain entry oaakit-redis/redis://HOST:PORT',
    fileDescription: 'file holding the queue URL, on one line (it may carry the password)',
    risk: 'a password in a URL on the command line is visible to every user of the host (ps)',
    helpGroup: 'FLEET',
  },
);

/**
 * The Redis target of `--queue`, `--queue-file` or `OAA_QUEUE_URL`, its password resolved. `origin`
 * is where the URL came from, named in place of `--queue` when the URL is refused.
 */
export async function queueTarget(url: string | undefined, origin?: string): Promise<RedisTarget> {
  const [{ resolveRedisTarget }, { readKeychain }] = await Promise.all([
    import('@oaakit/fleet'),
    import('@oaakit/runner'),
  ]);
  try {
    return await resolveRedisTarget(url, { keychain: readKeychain });
  } catch (error) {
    if (origin === undefined || origin === '--queue' || !isOaaError(error)) throw error;
    if (error.code !== 'QUEUE_URL_INVALID' || !error.message.startsWith('--queue:')) throw error;
    throw new OaaError(`${origin}:${error.message.slice('--queue:'.length)}`, {
      code: error.code,
      hints: error.hints,
      details: error.details,
    });
  }
}

/** The secret parts of a target, for the command to keep out of its output. */
export function targetSecrets(target: RedisTarget): string[] {
  return [target.password].filter((s): s is string => s !== undefined && s !== '');
}
