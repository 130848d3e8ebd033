/**
 * The starter of `oaa plugins new --template manifest` (templates/manifest): its manifest is
 * valid, reads the example API it describes into a valid payload, and its recording
 * `fixtures/source.har` is what that manifest asks of the example API now. After a deliberate
 * change to the starter manifest or the engine, write the recording again with
 *
 *   OAA_WRITE_FIXTURES=1 npx vitest run plugins/rest/src/starter-template.test.ts
 *
 * and review the diff. (scripts/test-scaffold.sh generates a starter and runs its own checks on it.)
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { HarRecorder, readHar, recordingFetch } from '@oaakit/runner/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestConnector } from './connector.js';
import { checkManifest, compileManifestText } from './manifest/load.js';
import { dryRun } from './private-test-helpers/scim.js';
import { serve, type Source } from './private-test-helpers/source.js';

const TEMPLATE = new URL('../../../templates/manifest/', import.meta.url);
const RECORDING = fileURLToPath(new URL('fixtures/source.har', TEMPLATE));
/** The URL the starter's configs name; the recording answers it. */
const EXAMPLE_URL = 'https://api.example.test';
const TOKEN = 'starter-example-token-0b6e';

/** The example API's data: five users in pages, three roles. */
const USERS = [
  { id: 1, login: 'ada', email: 'ada@example.test', active: true, role: 'Admin' },
  { id: 2, login: 'bob', email: 'bob@example.test', active: true, role: 'Editor' },
  { id: 3, login: 'cy', email: 'cy@example.test', active: true, role: 'Viewer' },
  { id: 4, login: 'dee', email: 'dee@example.test', active: false, role: null },
  { id: 5, login: 'eve', email: 'eve@example.test', active: true, role: 'Editor' },
];
const ROLES = [
  { name: 'Admin', permissions: ['read', 'write', 'admin'] },
  { name: 'Editor', permissions: ['read', 'write'] },
  { name: 'Viewer', permissions: ['read'] },
];

/** The starter manifest with its placeholders filled as `oaa plugins new` fills them. */
async function starter(): Promise<string> {
  const text = await readFile(new URL('manifest.yaml', TEMPLATE), 'utf8');
  return text
    .replaceAll('__CONNECTOR_ID__', 'starter')
    .replaceAll('__DISPLAY_NAME__', 'Starter')
    .replaceAll('__SOURCE_TYPE__', 'Starter');
}

let api: Source;
beforeAll(async () => {
  api = await serve((req) => {
    if (req.headers['authorization'] !== `Bearer ${TOKEN}`)
      return { status: 401, json: { error: 'unauthorized' } };
    if (req.path === '/api/roles') return { json: { roles: ROLES } };
    if (req.path !== '/api/users') return { status: 404, json: {} };
    const page = Number(req.query['page']);
    const size = Number(req.query['per_page']);
    return {
      json: {
        users: USERS.slice((page - 1) * size, page * size),
        total_pages: Math.ceil(USERS.length / size),
      },
    };
  });
});
afterAll(() => api.close());

/** A fetch sending what is asked of the example URL to the local API. */
const rehosted: typeof globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : new URL(input).href;
  if (!url.startsWith(EXAMPLE_URL)) throw new TypeError(`not under ${EXAMPLE_URL}: ${url}`);
  return globalThis.fetch(`${api.url}${url.slice(EXAMPLE_URL.length)}`, init);
};

describe('the manifest starter', () => {
  it('is a valid manifest', async () => {
    expect(checkManifest(await starter(), 'manifest.yaml').problems).toEqual([]);
  });

  it('reads the example API into a valid payload, and its recording is what it asks now (OAA_WRITE_FIXTURES=1 writes it)', async () => {
    const connector = manifestConnector(compileManifestText(await starter(), 'manifest.yaml'));
    const recorder = new HarRecorder({ scrub: { secrets: [TOKEN] }, stableTimes: true });
    const config = { manifest: 'manifest.yaml', vars: { url: EXAMPLE_URL, page_size: 2 } };
    const { result, payload } = await dryRun(
      connector,
      config,
      { token: TOKEN },
      {
        sourceFetch: recordingFetch(rehosted, recorder),
      },
    );
    expect(result.counts).toMatchObject({
      local_users: 5,
      local_roles: 3,
      permissions: 3,
      identity_to_permissions: 4,
    });
    expect(result.validationWarnings).toEqual([]);
    expect(payload['permissions']).toContainEqual({
      name: 'admin',
      permission_type: ['MetadataWrite', 'DataDelete'],
    });
    recorder.comment =
      'The starter manifest of `oaa plugins new --template manifest` reading the example API it describes ' +
      `(5 users in pages of 2, 3 roles) at ${EXAMPLE_URL}. ` +
      'Written by OAA_WRITE_FIXTURES=1 npx vitest run plugins/rest/src/starter-template.test.ts';
    if (process.env['OAA_WRITE_FIXTURES'] === '1') await recorder.write(RECORDING);
    expect(recorder.entries, 'templates/manifest/fixtures/source.har is out of date').toEqual(
      (await readHar(RECORDING)).log.entries,
    );
    expect(await readFile(RECORDING, 'utf8')).not.toContain(TOKEN);
  });
});
