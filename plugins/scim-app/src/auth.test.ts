import { OaaError, type ApplicationPayload } from '@oaakit/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScimAuth } from './config.js';
import scimAppConnector from './index.js';
import { retryWaits, testContext } from './private-test-helpers/context.js';
import {
  startScimServer,
  type ScimServer,
  type ScimServerOptions,
} from './private-test-helpers/scim-server.js';
import { directory, manyUsers } from './private-test-helpers/seed.js';

let server: ScimServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  options: Partial<ScimServerOptions> & Pick<ScimServerOptions, 'auth'>,
): Promise<ScimServer> {
  server = await startScimServer({ ...directory(), ...options });
  return server;
}

function context(s: ScimServer, auth: ScimAuth, credential: string, pageSize = 100) {
  return testContext(
    { baseUrl: s.baseUrl, applicationName: 'Wiki', applicationType: 'WikiApp', auth, pageSize },
    credential,
  );
}

/** The error `work` fails with. */
async function failure(work: unknown): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** Everything a user could see of an error: message, hints, details and the whole cause chain. */
function visible(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    parts.push(e.message, e.stack ?? '', JSON.stringify(e instanceof OaaError ? e.toJSON() : e));
  }
  return parts.join('\n');
}

describe('auth against SCIMMY', () => {
  it('reads with basic auth', async () => {
    const s = await start({ auth: { type: 'basic', username: 'scim-reader', password: 'pa55:word' } });
    const payload = (await scimAppConnector.extract(
      context(s, { type: 'basic', username: 'scim-reader' }, 'pa55:word').ctx,
    )) as ApplicationPayload;
    expect(payload.applications[0]!.local_users).toHaveLength(4);
  });

  it('names the URL and the status when the bearer token is wrong, never the token', async () => {
    const s = await start({ auth: { type: 'bearer', token: 'right-token' } });
    const error = await failure(
      scimAppConnector.extract(context(s, { type: 'bearer' }, 'wrong-token-1234').ctx),
    );
    expect(error).toBeInstanceOf(OaaError);
    expect(error).toMatchObject({
      code: 'SCIM_REQUEST_FAILED',
      message: `SCIM request GET ${s.baseUrl}/Users?startIndex=1&count=100 was answered with HTTP 401`,
      details: { status: 401 },
      hints: [expect.stringMatching(/secret "credential" \(the bearer token\)/)],
    });
    // What ctx.http threw: the source refused the credentials.
    expect((error as OaaError).cause).toMatchObject({
      code: 'SOURCE_CREDENTIALS_REFUSED',
      retryable: false,
      details: { status: 401 },
    });
    expect(visible(error)).not.toContain('wrong-token-1234');
  });

  it('names the user but not the password when basic auth is refused, also from check', async () => {
    const s = await start({ auth: { type: 'basic', username: 'scim-reader', password: 'right' } });
    const error = await failure(
      scimAppConnector.check!(context(s, { type: 'basic', username: 'scim-reader' }, 'hunter2-wrong').ctx),
    );
    expect(error).toMatchObject({
      code: 'SCIM_REQUEST_FAILED',
      details: { status: 401, url: `${s.baseUrl}/Users?startIndex=1&count=1` },
    });
    expect((error as OaaError).hints.join(' ')).toContain('"scim-reader"');
    const seen = visible(error);
    expect(seen).not.toContain('hunter2-wrong');
    expect(seen).not.toContain(Buffer.from('scim-reader:hunter2-wrong').toString('base64'));
  });

  it('says the base URL is wrong when the service answers 404', async () => {
    const s = await start({ auth: { type: 'bearer', token: 't' } });
    const t = testContext(
      {
        baseUrl: `${s.baseUrl}/nope`,
        applicationName: 'Wiki',
        applicationType: 'WikiApp',
        auth: { type: 'bearer' },
      },
      't',
    );
    const error = await failure(scimAppConnector.extract(t.ctx));
    expect(error).toMatchObject({
      code: 'SCIM_REQUEST_FAILED',
      details: { status: 404 },
      hints: [expect.stringMatching(/check baseUrl/)],
    });
  });

  it('waits as Retry-After asks when the service answers 429, then reads every page', async () => {
    const s = await start({
      users: manyUsers(6),
      groups: [],
      auth: { type: 'bearer', token: 't' },
      throttle: { afterRequests: 1, retryAfterSeconds: 1 },
    });
    const t = context(s, { type: 'bearer' }, 't', 2);
    const payload = (await scimAppConnector.extract(t.ctx)) as ApplicationPayload;
    expect(payload.applications[0]!.local_users?.map((u) => u.name)).toEqual(
      manyUsers(6).map((u) => u.userName),
    );
    expect(
      s.requests.filter((r) => r.path === '/scim/v2/Users').map((r) => [r.query.startIndex, r.status]),
    ).toEqual([
      ['1', 200],
      ['3', 429],
      ['3', 200],
      ['5', 200],
    ]);
    expect(retryWaits(t)).toEqual([1000]);
  });

  it('rejects config that would put credentials in the URL', () => {
    const parse = () =>
      testContext(
        {
          baseUrl: 'https://u:p@scim.example.com/v2',
          applicationName: 'A',
          applicationType: 'A',
          auth: { type: 'bearer' },
        },
        'x',
      );
    expect(parse).toThrow(/must not contain credentials/);
  });
});
