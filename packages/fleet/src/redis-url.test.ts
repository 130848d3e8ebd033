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

  it('refuses a user name or password that is not valid percent-encoding, without showing it', () => {
    for (const [url, what] of [
      ['redis://:hunter%zz22@127.0.0.1:6379', 'password'],
      ['redis://:hunter22%@127.0.0.1:6379/1', 'password'],
      ['rediss://ops%e0%a4@redis.internal:6380', 'user name'],
    ] as const) {
      let caught: unknown;
      try {
        parseRedisUrl(url);
      } catch (error) {
        caught = error;
      }
      expect(caught, url).toMatchObject({ code: 'QUEUE_URL_INVALID' });
      const message = (caught as Error).message;
      expect(message).toContain(`the ${what} in the URL is not valid percent-encoding`);
      expect(message).not.toMatch(/hunter|ops%/);
    }
    expect(parseRedisUrl('redis://:50%25%40off@127.0.0.1:6379')).toMatchObject({ password: '50%@off' });
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
