/**
 * The flags every fleet command takes (`--queue`), and the Redis target they name, with the password
 * from the environment or the OS keychain (see `resolveRedisTarget`). Loaded lazily: oclif imports
 * every command at start-up, and commands that do not use a fleet must not load Redis code.
 */
import { Flags } from '@oclif/core';
import type { RedisTarget } from '@oaakit/fleet';

/** `--queue`: the Redis of the fleet. */
export const queueFlag = Flags.string({
  description:
    'Redis of the fleet: redis://HOST:PORT[/DB] or rediss:// for TLS (default: OAA_QUEUE_URL); the password comes from OAA_REDIS_PASSWORD or the keychain entry oaakit-redis/redis://HOST:PORT',
  helpGroup: 'FLEET',
});

/** The Redis target of `--queue` (or `OAA_QUEUE_URL`), its password resolved. */
export async function queueTarget(flag: string | undefined): Promise<RedisTarget> {
  const [{ resolveRedisTarget }, { readKeychain }] = await Promise.all([
    import('@oaakit/fleet'),
    import('@oaakit/runner'),
  ]);
  return resolveRedisTarget(flag, { keychain: readKeychain });
}

/** The secret parts of a target, for the command to keep out of its output. */
export function targetSecrets(target: RedisTarget): string[] {
  return [target.password].filter((s): s is string => s !== undefined && s !== '');
}
