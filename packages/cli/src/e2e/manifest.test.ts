/**
 * The declarative REST connector's tooling, run as the built `oaa`: `oaa manifest check` (problems
 * at their path and line, exit 2), `oaa manifest try` against a real HTTP source started here on
 * port 0 (the raw records next to the mapped entities; the secret from an environment variable,
 * never printed), and `oaa plugins test` on the shipped scim manifest from its committed recording.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AcceptanceReport } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../exit-codes.js';
import type { ErrorJson } from '../output/render-error.js';
import { CLI_ROOT, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

const REPO = resolve(CLI_ROOT, '../..');
const TOKEN = 'tracker-try-token-7e21c4';

const USERS = [
  { id: 1, login: 'ada', admin: true, api_key: 'ada-api-key' },
  { id: 2, login: 'bob', admin: false, api_key: 'bob-api-key' },
  { id: 3, login: 'cy', admin: false, api_key: 'cy-api-key' },
];

const MANIFEST = `version: 1
id: tracker
vars:
  url: { description: the tracker URL }
  page_size: { description: users per page, type: integer, default: 2 }
secrets:
  token: { description: the API key }
source:
  base_url: '{{ vars.url }}'
  auth: { type: header, name: X-Api-Key, secret: token }
streams:
  users:
    path: /users.json
    pagination: { type: offset, offset_param: offset, limit_param: limit, limit: '{{ vars.page_size }}', total: total_count }
    records: users
    drop: [api_key]
payload:
  template: application
  application: '{ "name": "Tracker", "application_type": "Tracker" }'
  local_users:
    stream: users
    map: '{ "name": login, "unique_id": $string(id) }'
  local_roles:
    stream: users
    distinct: true
    map: 'admin ? "Administrator" : ()'
  grants:
    stream: users
    map: |
      admin ? {
        "identity": login,
        "identity_type": "local_user",
        "role_assignments": [{ "application": "Tracker", "role": "Administrator", "apply_to_application": true }]
      } : ()
`;

let server: Server;
let url: string;
let work: { dir: string; remove: () => Promise<void> };
let manifest: string;
let broken: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    if (req.headers['x-api-key'] !== TOKEN) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const offset = Number(u.searchParams.get('offset'));
    const limit = Number(u.searchParams.get('limit'));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ users: USERS.slice(offset, offset + limit), total_count: USERS.length }));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  work = await tempDir('oaa-e2e-manifest-');
  manifest = join(work.dir, 'tracker.yaml');
  await writeFile(manifest, MANIFEST);
  broken = join(work.dir, 'broken.yaml');
  await writeFile(
    broken,
    MANIFEST.replace(
      'auth: { type: header, name: X-Api-Key, secret: token }',
      'auth: { type: header, name: X-Api-Key, secret: key }',
    )
      .replace('offset_param: offset', 'offset_param: offset, size: 2')
      .replace('"unique_id": $string(id)', '"unique_id": $string(id'),
  );
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  server.closeAllConnections();
  await work.remove();
});

describe('oaa manifest check', () => {
  it('says what a valid manifest declares, and exits 0', async () => {
    const res = await oaa(['manifest', 'check', manifest]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`${manifest}: a valid manifest of connector tracker (template application)`);
    expect(res.stdout).toContain('  entities: local_users <- users, local_roles <- users, grants <- users');
    expect(res.stdout).toContain('  vars: url (required), page_size');
  });

  it('checks a shipped manifest by id', async () => {
    const res = await oaa(['manifest', 'check', 'scim', '--json']);
    expect(res.code).toBe(0);
    expect(json(res)).toMatchObject({
      file: 'scim.yaml',
      valid: true,
      id: 'scim',
      template: 'application',
      secrets: ['token'],
    });
  });

  it('lists every problem as FILE:LINE:COLUMN: PATH: MESSAGE and exits 2', async () => {
    const res = await oaa(['manifest', 'check', broken]);
    expect(res.code).toBe(EXIT.VALIDATION);
    expect(res.stderr).toContain(`${broken} is not a valid manifest (1 problem):`);
    expect(res.stderr).toContain(
      `  ${broken}:14:55: streams.users.pagination.size: unknown field; allowed here: type, offset_param, limit_param, limit, start, total`,
    );
    const { error } = json<{ error: ErrorJson }>(await oaa(['manifest', 'check', broken, '--json']));
    expect(error).toMatchObject({ code: 'MANIFEST_INVALID', exitCode: 2 });
    expect(error.details['problems']).toEqual([
      expect.objectContaining({ path: 'streams.users.pagination.size', line: 14, column: 55 }),
    ]);
  });

  it('reports the second problem once the first is fixed: a secret the manifest does not declare, and a JSONata error', async () => {
    const fixed = join(work.dir, 'fixed.yaml');
    await writeFile(
      fixed,
      MANIFEST.replace('secret: token }', 'secret: key }').replace(
        '"unique_id": $string(id)',
        '"unique_id": $string(id',
      ),
    );
    const res = await oaa(['manifest', 'check', fixed]);
    expect(res.code).toBe(EXIT.VALIDATION);
    expect(res.stderr).toContain(
      `${fixed}:10:50: source.auth.secret: names the secret "key", which secrets does not declare; declared: token`,
    );
    expect(res.stderr).toMatch(
      new RegExp(
        `${fixed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:22:52: payload\\.local_users\\.map: the expression .* is not valid JSONata`,
      ),
    );
  });

  it('refuses a file that cannot be read with the usage exit code', async () => {
    const res = await oaa(['manifest', 'check', join(work.dir, 'missing.yaml')]);
    expect(res.code).toBe(EXIT.USAGE);
    expect(res.stderr).toContain('cannot read the manifest');
  });
});

describe('oaa manifest try', () => {
  it('shows each raw record of the first page next to what each mapping makes of it, the secret never', async () => {
    const res = await oaa(
      [
        'manifest',
        'try',
        manifest,
        '--stream',
        'users',
        '--vars',
        `url=${url}`,
        '--secret',
        'token=env:TRACKER_TOKEN',
      ],
      { env: { TRACKER_TOKEN: TOKEN } },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`stream users of ${manifest}: 1 page, 2 records, 1 request in all`);
    expect(res.stdout).toContain(`  GET ${url}/users.json?offset=0&limit=2 -> 200 (2 records)`);
    expect(res.stdout).toContain('record 1:\n  {\n    "id": 1,\n    "login": "ada",\n    "admin": true\n  }');
    expect(res.stdout).toContain(
      '  => payload.local_users: 1 entity\n     {\n       "name": "ada",\n       "unique_id": "1"\n     }',
    );
    expect(res.stdout).toContain('  => payload.grants: nothing');
    expect(res.stdout).not.toContain('api-key');
    expect(res.stdout + res.stderr).not.toContain(TOKEN);
  });

  it('reads more pages and gives the vars as YAML; --json has every record', async () => {
    const res = await oaa(
      [
        'manifest',
        'try',
        manifest,
        '-s',
        'users',
        '--vars',
        `url=${url}`,
        '--vars',
        'page_size=1',
        '--pages',
        '3',
        '--secret',
        'token=env:TRACKER_TOKEN',
        '--json',
      ],
      { env: { TRACKER_TOKEN: TOKEN } },
    );
    expect(res.code).toBe(0);
    const out = json<{
      pages: { url: string }[];
      records: { record: { login: string }; mappings: { kind: string; entities: unknown[] }[] }[];
    }>(res);
    expect(out.pages.map((p) => new URL(p.url).searchParams.get('offset'))).toEqual(['0', '1', '2']);
    expect(out.records.map((r) => r.record.login)).toEqual(['ada', 'bob', 'cy']);
    expect(out.records[0]!.mappings).toEqual([
      { kind: 'local_users', path: 'payload.local_users', entities: [{ name: 'ada', unique_id: '1' }] },
      { kind: 'local_roles', path: 'payload.local_roles', entities: [{ name: 'Administrator' }] },
      {
        kind: 'grants',
        path: 'payload.grants',
        entities: [
          {
            identity: 'ada',
            identity_type: 'local_user',
            role_assignments: [{ application: 'Tracker', role: 'Administrator', apply_to_application: true }],
          },
        ],
      },
    ]);
  });

  it('takes the vars and secrets of a connector entry', async () => {
    const config = join(work.dir, 'oaa.config.json');
    await writeFile(
      config,
      JSON.stringify({
        connectors: [
          {
            id: 'tracker',
            plugin: '@oaakit/plugin-rest',
            provider: 'Tracker',
            dataSource: 'Tracker',
            config: { manifest: 'tracker.yaml', vars: { url } },
            secrets: { token: 'env:TRACKER_TOKEN' },
          },
        ],
      }),
    );
    const res = await oaa(
      ['manifest', 'try', manifest, '-s', 'users', '--config', config, '--connector', 'tracker', '--json'],
      {
        env: { TRACKER_TOKEN: TOKEN },
      },
    );
    expect(res.code).toBe(0);
    expect(json<{ read: number }>(res).read).toBe(2);
  });

  it('fails with the connector exit code when the source refuses the secret, and names a missing one', async () => {
    const refused = await oaa(
      [
        'manifest',
        'try',
        manifest,
        '-s',
        'users',
        '--vars',
        `url=${url}`,
        '--secret',
        'token=env:TRACKER_TOKEN',
      ],
      { env: { TRACKER_TOKEN: 'wrong-token-value' } },
    );
    expect(refused.code).toBe(EXIT.CONNECTOR);
    expect(refused.stderr).toContain('answered 401');
    expect(refused.stderr).not.toContain('wrong-token-value');
    const missing = await oaa(['manifest', 'try', manifest, '-s', 'users', '--vars', `url=${url}`]);
    expect(missing.code).toBe(EXIT.CONFIG);
    expect(missing.stderr).toContain('the manifest needs the secret token');
    const stream = await oaa(['manifest', 'try', manifest, '-s', 'people', '--vars', `url=${url}`]);
    expect(stream.code).toBe(EXIT.USAGE);
    expect(stream.stderr).toContain('its streams: users');
  });
});

describe('oaa plugins test on the scim manifest', () => {
  it('passes every check from the committed recording, with no source running', async () => {
    const res = await oaa(
      [
        'plugins',
        'test',
        join(REPO, 'plugins/rest'),
        '--config',
        join(REPO, 'plugins/rest/acceptance.config.yaml'),
        '--replay',
        join(REPO, 'plugins/rest/fixtures/scim-source.har'),
        '--json',
      ],
      { env: { SCIM_TOKEN: 'any-token-will-do' } },
    );
    expect(res.code, res.stderr).toBe(0);
    const report = json<AcceptanceReport>(res);
    expect(report.connector).toMatchObject({ id: 'scim', template: 'application' });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
