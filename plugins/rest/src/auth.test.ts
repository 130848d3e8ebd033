/**
 * Each kind of `source.auth` against a real HTTP source that checks the credentials: what the
 * requests carry, that a refused credential is a credential error, and that a secret's value never
 * shows in an error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  readAll,
  serve,
  userManifest,
  type SeenRequest,
  type Source,
} from './private-test-helpers/source.js';

const SECRET = 's3cr3t-value-9d8e7f';
const ITEMS = { json: { items: [{ name: 'ada' }, { name: 'bob' }] } };

let source: Source | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

const STREAM = `  items:
    path: /people
    params: { active: true }
    records: items`;

function manifest(auth: string, secrets = `secrets:\n  key: { description: the API key }`): string {
  return userManifest(STREAM, { secrets, auth: `  auth:\n${auth.replace(/^/gm, '    ')}` });
}

/** A source that answers when `ok` says the request carries the credential, else 401. */
async function guarded(ok: (req: SeenRequest) => boolean): Promise<Source> {
  return serve((req) => (ok(req) ? ITEMS : { status: 401, json: { error: 'invalid credentials' } }));
}

describe('source.auth', () => {
  it('bearer: Authorization: Bearer <secret>', async () => {
    source = await guarded((req) => req.headers['authorization'] === `Bearer ${SECRET}`);
    const text = manifest('type: bearer\nsecret: key');
    expect(await readAll(text, 'items', { url: source.url }, { key: SECRET })).toHaveLength(2);
    expect(source.requests[0]).toMatchObject({ path: '/people', query: { active: 'true' } });
  });

  it('basic: the username from a var, the password from the secret', async () => {
    const expected = `Basic ${Buffer.from(`reader:${SECRET}`).toString('base64')}`;
    source = await guarded((req) => req.headers['authorization'] === expected);
    const text = manifest("type: basic\nusername: '{{ vars.user }}'\nsecret: key").replace(
      '  url: { description: the source URL }',
      '  url: { description: the source URL }\n  user: { description: the username }',
    );
    expect(await readAll(text, 'items', { url: source.url, user: 'reader' }, { key: SECRET })).toHaveLength(
      2,
    );
  });

  it('header: the secret in a header of its own', async () => {
    source = await guarded((req) => req.headers['x-redmine-api-key'] === SECRET);
    const text = manifest('type: header\nname: X-Redmine-API-Key\nsecret: key');
    expect(await readAll(text, 'items', { url: source.url }, { key: SECRET })).toHaveLength(2);
    expect(source.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('query: the secret in a parameter, and never in an error message', async () => {
    source = await serve((req) =>
      req.query['key'] === SECRET ? { status: 500, json: { error: 'down' } } : { status: 401, json: {} },
    );
    // No retries: the 500 is the answer.
    const text = manifest('type: query\nname: key\nsecret: key').replace(
      "  base_url: '{{ vars.url }}'",
      "  base_url: '{{ vars.url }}'\n  retries: 0",
    );
    const error = await readAll(text, 'items', { url: source.url }, { key: SECRET }).catch((e: unknown) => e);
    expect(source.requests[0]?.query).toEqual({ active: 'true', key: SECRET });
    expect(error).toMatchObject({
      code: 'SOURCE_HTTP_ERROR',
      message: `GET ${source.url}/people answered 500`,
    });
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('oauth2_client_credentials: a token from the token endpoint, fetched once and sent as Bearer', async () => {
    const clientAuth = `Basic ${Buffer.from(`client-1:${SECRET}`).toString('base64')}`;
    source = await serve((req) => {
      if (req.path === '/oauth/token') {
        const form = new URLSearchParams(req.body);
        if (req.headers['authorization'] !== clientAuth || form.get('grant_type') !== 'client_credentials')
          return { status: 401, json: { error: 'invalid_client' } };
        return {
          json: { access_token: `token-for-${form.get('scope')}`, token_type: 'Bearer', expires_in: 3600 },
        };
      }
      return req.headers['authorization'] === 'Bearer token-for-read:users'
        ? {
            json: {
              items: [{ name: `n${req.query['page'] ?? '1'}` }],
              next:
                Number(req.query['page'] ?? 1) < 3
                  ? `/people?page=${Number(req.query['page'] ?? 1) + 1}`
                  : null,
            },
          }
        : { status: 401, json: {} };
    });
    const text = manifest(
      "type: oauth2_client_credentials\ntoken_url: '{{ vars.url }}/oauth/token'\nclient_id: client-1\nsecret: key\nscopes: ['read:users']",
    ).replace('    records: items', '    records: items\n    pagination: { type: cursor, next: next }');
    expect(await readAll(text, 'items', { url: source.url }, { key: SECRET })).toEqual([
      { name: 'n1' },
      { name: 'n2' },
      { name: 'n3' },
    ]);
    expect(source.requests.map((r) => r.path)).toEqual(['/oauth/token', '/people', '/people', '/people']);
  });

  it('oauth2_client_credentials: a refused client is an error naming the token endpoint, not the secret', async () => {
    source = await serve(() => ({ status: 401, json: { error: 'invalid_client' } }));
    const text = manifest(
      "type: oauth2_client_credentials\ntoken_url: '{{ vars.url }}/oauth/token'\nclient_id: client-1\nsecret: key\nclient_auth: body",
    );
    const error = await readAll(text, 'items', { url: source.url }, { key: SECRET }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SOURCE_CREDENTIALS_REFUSED',
      message: expect.stringContaining('/oauth/token answered 401'),
    });
    expect(new URLSearchParams(source.requests[0]?.body).get('client_secret')).toBe(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('a refused credential is a credential error (401, not retried)', async () => {
    source = await guarded(() => false);
    const text = manifest('type: bearer\nsecret: key');
    await expect(readAll(text, 'items', { url: source.url }, { key: 'wrong' })).rejects.toMatchObject({
      code: 'SOURCE_CREDENTIALS_REFUSED',
    });
    expect(source.requests).toHaveLength(1);
  });
});
