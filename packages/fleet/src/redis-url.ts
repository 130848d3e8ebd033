/**
 * The Redis a fleet uses: a `redis://` or `rediss://` (TLS) URL with an optional database number.
 * Its password comes, like an API key, from the environment or the OS keychain, never from job data
 * or a config file: `OAA_REDIS_PASSWORD`, else the keychain entry `oaakit-redis` / `redis://HOST:PORT`.
 * A password written into the URL itself works too (as `OAA_QUEUE_URL` in the environment, say), but
 * is never logged: {@link RedisTarget.display} is the URL without it.
 */
import { OaaError } from '@oaakit/core';
import { FLEET_ERROR_CODES } from './fleet-codes.js';

/** Keychain service under which Redis passwords are stored, one entry per `redis://HOST:PORT`. */
export const REDIS_KEYCHAIN_SERVICE = 'oaakit-redis';

/** A parsed queue URL. */
export interface RedisTarget {
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** The URL without credentials, for logs and messages; also the keychain account. */
  display: string;
}

function invalid(reason: string): OaaError {
  return new OaaError(`--queue: ${reason}`, {
    code: FLEET_ERROR_CODES.QUEUE_URL_INVALID,
    hints: [
      'write it as redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB] (TLS), e.g. redis://127.0.0.1:6379/0',
    ],
  });
}

/**
 * A user name or password of the URL, percent-decoded. A `%` that does not start a `%XX` escape is
 * refused by name, never shown: the text is a secret.
 */
function decodeCredential(text: string, what: 'user name' | 'password'): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid(
      `the ${what} in the URL is not valid percent-encoding: each % must start an escape such as %40; write a % itself as %25`,
    );
  }
}

/** Parses a queue URL; throws `QUEUE_URL_INVALID` naming what is wrong (never echoing a password). */
export function parseRedisUrl(text: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw invalid(`the scheme must be redis or rediss, not ${url.protocol.replace(/:$/, '')}`);
  if (url.hostname === '') throw invalid('the host is missing');
  const tls = url.protocol === 'rediss:';
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^(?:[0-9]|1[0-5])$/.test(path))
    throw invalid(`the database must be a number from 0 to 15, not ${JSON.stringify(path)}`);
  const db = path === '' ? 0 : Number(path);
  const display = `${url.protocol}//${url.host}/${db}`;
  return {
    tls,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    ...(url.username === '' ? {} : { username: decodeCredential(url.username, 'user name') }),
    ...(url.password === '' ? {} : { password: decodeCredential(url.password, 'password') }),
    display,
  };
}

/** The keychain account of a Redis target: scheme, host and port. */
export function redisKeychainAccount(target: RedisTarget): string {
  return `${target.tls ? 'rediss' : 'redis'}://${target.host}:${target.port}`;
}

/** Where {@link resolveRedisTarget} looks for a password the URL does not carry. */
export interface RedisPasswordSources {
  env?: NodeJS.ProcessEnv;
  /** Reads a keychain entry; undefined when there is none. */
  keychain?: (service: string, account: string) => Promise<string | undefined>;
}

/**
 * The queue URL from `--queue` or `OAA_QUEUE_URL`, with its password from the URL, else
 * `OAA_REDIS_PASSWORD`, else the keychain. Throws `QUEUE_URL_INVALID` when there is no URL.
 */
export async function resolveRedisTarget(
  flag: string | undefined,
  sources: RedisPasswordSources = {},
): Promise<RedisTarget> {
  const env = sources.env ?? process.env;
  const text = flag ?? env['OAA_QUEUE_URL'];
  if (text === undefined || text === '')
    throw invalid('no queue URL: pass --queue or --queue-file, or set OAA_QUEUE_URL');
  const target = parseRedisUrl(text);
  if (target.password !== undefined) return target;
  const fromEnv = env['OAA_REDIS_PASSWORD'];
  if (fromEnv !== undefined && fromEnv !== '') return { ...target, password: fromEnv };
  const stored = await sources.keychain?.(REDIS_KEYCHAIN_SERVICE, redisKeychainAccount(target));
  return stored === undefined ? target : { ...target, password: stored };
}
