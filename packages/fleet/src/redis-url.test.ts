import { describe, expect, it } from 'vitest';
import { parseRedisUrl, resolveRedisTarget } from './redis-url.js';

describe('queue URLs', () => {
  it('reads host, port, database and TLS, and shows the URL without its password', () => {
    expect(parseRedisUrl('rediss://:s3cret@redis.internal:6380/2')).toEqual({
      tls: true,
      host: 'redis.internal',
      port: 6380,
      db: 2,
      password: 's3cret',
      display: 'rediss://redis.internal:6380/2',
    });
    expect(parseRedisUrl('redis://127.0.0.1')).toMatchObject({ port: 6379, db: 0, tls: false });
  });

  it('refuses other schemes and databases, naming the problem and never the password', () => {
    expect(() => parseRedisUrl('http://x:6379')).toThrow(/scheme must be redis or rediss, not http/);
    expect(() => parseRedisUrl('redis://:pw@x:6379/16')).toThrow(/database must be a number from 0 to 15/);
    let caught: unknown;
    try {
      parseRedisUrl('redis://:hunter22@x/abc');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'QUEUE_URL_INVALID' });
    expect((caught as Error).message).not.toContain('hunter22');
  });

  it('takes the password from OAA_REDIS_PASSWORD, else the keychain entry of the host and port', async () => {
    const seen: string[] = [];
    const keychain = (service: string, account: string): Promise<string | undefined> => {
      seen.push(`${service}/${account}`);
      return Promise.resolve('from-keychain');
    };
    expect(
      await resolveRedisTarget('redis://h:1/0', { env: { OAA_REDIS_PASSWORD: 'from-env' }, keychain }),
    ).toMatchObject({ password: 'from-env' });
    expect(
      await resolveRedisTarget(undefined, { env: { OAA_QUEUE_URL: 'redis://h:1/3' }, keychain }),
    ).toMatchObject({ password: 'from-keychain', db: 3 });
    expect(seen).toEqual(['oaakit-redis/redis://h:1']);
    await expect(resolveRedisTarget(undefined, { env: {} })).rejects.toMatchObject({
      code: 'QUEUE_URL_INVALID',
    });
  });
});
