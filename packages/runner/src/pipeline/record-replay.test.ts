/**
 * `record` and `replay` of runs and checks: a connector reading a real HTTP source is recorded, the
 * source is closed, and the run is replayed from the file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';
import type { ApplicationPayload } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readHar } from '../har/read-har.js';
import { rejection } from '../private-test-helpers/rejection.js';
import { startSourceServer } from '../private-test-helpers/source-server.js';
import type { SourceServer } from '../private-test-helpers/source-server.js';
import { StateStore } from '../state/state-store.js';
import { checkConnector } from './check-step.js';
import { runConnector } from './run-connector.js';
import type { RunConnectorOptions } from './run-types.js';

const TOKEN = 'roster-token-9c1e';

/** Reads `pages` pages of user names from the source, with the token as a bearer token. */
const rosterConnector = defineConnector({
  id: 'http-roster',
  version: '1.2.3',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  configSchema: z.strictObject({ url: z.string(), pages: z.int().default(2) }),
  secrets: [{ name: 'token', description: 'bearer token of the roster source' }],
  async check(ctx) {
    await ctx.http.json(`${ctx.config.url}/me`, {
      headers: { authorization: `Bearer ${ctx.secrets.token}` },
    });
  },
  async extract(ctx): Promise<ApplicationPayload> {
    const names: string[] = [];
    for (let page = 1; page <= ctx.config.pages; page++) {
      const body = await ctx.http.json<{ users: string[] }>(`${ctx.config.url}/users?page=${page}`, {
        headers: { authorization: `Bearer ${ctx.secrets.token}` },
        retries: 0,
      });
      names.push(...body.users);
    }
    return {
      applications: [
        {
          name: 'Roster',
          application_type: 'Roster',
          local_users: names.map((name) => ({ name, identities: [`${name}@example.com`] })),
        },
      ],
      permissions: [],
      identity_to_permissions: [],
    };
  },
});

let server: SourceServer;
let dir: string;
let open: boolean;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-record-'));
  server = await startSourceServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"detail":"who are you?"}');
      return;
    }
    const page = Number(new URL(req.url, 'http://source').searchParams.get('page'));
    if (req.url === '/me' || (page >= 1 && page <= 2)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(req.url === '/me' ? { me: 'reader' } : { users: [`user${page}a`, `user${page}b`] }),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"detail":"no such page"}');
  });
  open = true;
});
afterEach(async () => {
  if (open) await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function closeSource(): Promise<void> {
  await server.close();
  open = false;
}

function dryRun(options: Partial<RunConnectorOptions> & { config?: Record<string, unknown> } = {}) {
  return runConnector({
    connector: rosterConnector,
    config: { url: server.origin },
    secrets: { token: TOKEN },
    provider: 'Roster',
    dataSource: 'roster',
    state: new StateStore(join(dir, 'state')),
    dryRun: true,
    ...options,
  });
}

describe('record and replay of a run', () => {
  it("records the run's source requests, then replays the run from the file to the same digest once the source is gone", async () => {
    const file = join(dir, 'roster.har');
    const recorded = await dryRun({ record: file });
    expect(recorded.counts.local_users).toBe(4);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    const har = await readHar(file);
    expect(har.log.comment).toBe(
      'run of connector "http-roster" (plugin http-roster 1.2.3): succeeded (dry-run)',
    );
    expect(har.log.entries.map((e) => `${e.request.method} ${e.request.url} ${e.response.status}`)).toEqual([
      `GET ${server.origin}/users?page=1 200`,
      `GET ${server.origin}/users?page=2 200`,
    ]);
    await closeSource();

    const replayed = await dryRun({ replay: file });
    expect(replayed.digest).toBe(recorded.digest);
    expect(replayed.counts).toEqual(recorded.counts);
  });

  it('writes the recording of a failed run, saying in the file that it failed and why', async () => {
    const file = join(dir, 'failed.har');
    const error = await rejection(dryRun({ record: file, config: { url: server.origin, pages: 3 } }));
    expect(error.code).toBe('EXTRACT_FAILED');
    const har = await readHar(file);
    expect(har.log.comment).toMatch(
      /^run of connector "http-roster" \(plugin http-roster 1\.2\.3\): failed: EXTRACT_FAILED: connector "http-roster" .* failed while extracting: GET .*\/users answered 404$/,
    );
    expect(har.log.entries.map((e) => e.response.status)).toEqual([200, 200, 404]);
  });

  it('fails a replay that needs a request the recording lacks: REPLAY_UNMATCHED under EXTRACT_FAILED', async () => {
    const file = join(dir, 'roster.har');
    await dryRun({ record: file });
    await closeSource();
    const error = await rejection(dryRun({ replay: file, config: { url: server.origin, pages: 3 } }));
    expect(error).toMatchObject({
      code: 'EXTRACT_FAILED',
      details: { causeCode: 'REPLAY_UNMATCHED', cause: { file, url: `${server.origin}/users?page=3` } },
    });
  });

  it('answers a replay with the recorded 401 as SOURCE_CREDENTIALS_REFUSED, as the source did', async () => {
    const file = join(dir, 'refused.har');
    const live = await rejection(dryRun({ record: file, secrets: { token: 'wrong-token-5' } }));
    expect(live.details).toMatchObject({ causeCode: 'SOURCE_CREDENTIALS_REFUSED', cause: { status: 401 } });
    expect(await readFile(file, 'utf8')).not.toContain('wrong-token-5');
    await closeSource();
    const replayed = await rejection(dryRun({ replay: file, secrets: { token: 'wrong-token-5' } }));
    expect(replayed.details).toMatchObject({
      causeCode: 'SOURCE_CREDENTIALS_REFUSED',
      cause: { status: 401 },
    });
  });

  it('refuses record and replay together, and a replay file that is not there, before the source is asked', async () => {
    const both = await rejection(dryRun({ record: join(dir, 'a.har'), replay: join(dir, 'b.har') }));
    expect(both.code).toBe('INVALID_ARGUMENT');
    const missing = join(dir, 'missing.har');
    const error = await rejection(dryRun({ replay: missing }));
    expect(error).toMatchObject({ code: 'HAR_INVALID', message: `${missing}: no such HAR file` });
    const nowhere = join(dir, 'no-such-dir', 'x.har');
    const unwritable = await rejection(dryRun({ record: nowhere }));
    expect(unwritable).toMatchObject({ code: 'HAR_INVALID', details: { file: nowhere } });
    expect(server.requests).toEqual([]);
  });
});

describe('record and replay of a check', () => {
  it("records the connector's check and replays it once the source is gone", async () => {
    const file = join(dir, 'check.har');
    const options = {
      connector: rosterConnector,
      config: { url: server.origin },
      secrets: { token: TOKEN },
    };
    expect(await checkConnector({ ...options, record: file })).toMatchObject({ checked: true });
    expect((await readHar(file)).log.comment).toBe(
      'check of connector "http-roster" (plugin http-roster 1.2.3): succeeded (checked)',
    );
    await closeSource();
    expect(await checkConnector({ ...options, replay: file })).toMatchObject({ checked: true });
  });
});
