/**
 * `oaa run --record` / `--replay`: a connector reading a real HTTP source is recorded through the
 * built `oaa`, the source is closed, and the run is replayed from the file.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunOutput } from '../run/run-outcome.js';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

const TOKEN = 'roster-source-token-3e7d';

let work: { dir: string; remove: () => Promise<void> };
let source: Server;
let origin: string;
let sourceOpen: boolean;

/** The source: two pages of users, for the bearer token only. */
function answer(url: string, authorization: string | undefined): { status: number; body: unknown } {
  if (authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { detail: 'unknown token' } };
  const page = new URL(url, 'http://source').searchParams.get('page');
  if (page === '1') return { status: 200, body: { users: ['ada', 'bob'], next: 2 } };
  if (page === '2') return { status: 200, body: { users: ['cy'], next: null } };
  return { status: 404, body: { detail: 'no such page' } };
}

beforeEach(async () => {
  work = await tempDir('oaa-cli-record-');
  source = createServer((req, res) => {
    const { status, body } = answer(req.url ?? '/', req.headers.authorization);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  sourceOpen = true;
  const connectors = ['team', 'other'].map((id) => ({
    id,
    plugin: fixture('http-roster'),
    provider: 'Roster',
    dataSource: id,
    config: { url: origin, clientId: 'roster-client-17' },
    secrets: { token: 'env:ROSTER_TOKEN' },
    record: { scrubFields: ['X-Client-Id'] },
  }));
  await writeFile(join(work.dir, 'oaa.config.json'), JSON.stringify({ connectors }));
});

afterEach(async () => {
  if (sourceOpen) await closeSource();
  await work.remove();
});

function closeSource(): Promise<void> {
  sourceOpen = false;
  return new Promise((resolve) => {
    source.close(() => resolve());
    source.closeAllConnections();
  });
}

const run = (args: string[]) => oaa(['run', ...args], { cwd: work.dir, env: { ROSTER_TOKEN: TOKEN } });

describe('oaa run --record and --replay', () => {
  it('records the source without its token or the configured fields, then replays the run to the same digest with the source gone', async () => {
    const har = join(work.dir, 'team.har');
    const recorded = await run(['--connector', 'team', '--dry-run', '--json', '--record', har]);
    expect(recorded.code).toBe(0);
    const file = await readFile(har, 'utf8');
    expect(file).not.toContain(TOKEN);
    expect(file).not.toContain('roster-client-17');
    expect(file).toContain(`${origin}/users?page=2`);
    await closeSource();

    const replayed = await run(['--connector', 'team', '--dry-run', '--json', '--replay', har]);
    expect(replayed.code).toBe(0);
    const [before] = json<RunOutput>(recorded).results;
    const [after] = json<RunOutput>(replayed).results;
    expect(after?.counts.local_users).toBe(3);
    expect(after?.digest).toBe(before?.digest);

    const check = await run(['--connector', 'team', '--check', '--replay', har]);
    expect(check.code).toBe(0);
  });

  it('refuses --record with --replay, and either with more than one connector', async () => {
    const both = await run(['--connector', 'team', '--record', 'a.har', '--replay', 'b.har']);
    expect(both.code).toBe(64);
    expect(both.stderr).toContain('--record and --replay cannot be given together');
    const two = await run(['--dry-run', '--record', 'a.har']);
    expect(two.code).toBe(64);
    expect(two.stderr).toContain('--record needs exactly one connector');
  });

  it('names a --replay file that is missing or not a HAR file', async () => {
    const missing = join(work.dir, 'missing.har');
    const none = await run(['--connector', 'team', '--dry-run', '--replay', missing]);
    expect(none.code).toBe(64);
    expect(none.stderr).toContain(`${missing}: no such HAR file`);

    const bad = join(work.dir, 'bad.har');
    await writeFile(bad, JSON.stringify({ log: { version: '1.2', entries: [{}] } }));
    const invalid = await run(['--connector', 'team', '--dry-run', '--replay', bad]);
    expect(invalid.code).toBe(64);
    expect(invalid.stderr).toContain(`${bad}: not a HAR 1.2 file`);
    expect(invalid.stderr).toContain('log.creator: required');
    expect(invalid.stderr).toContain('log.entries[0].request: required');
  });

  it('fails a replay that needs a request the recording lacks, naming it and the file', async () => {
    const har = join(work.dir, 'team.har');
    expect((await run(['--connector', 'team', '--check', '--record', har])).code).toBe(0);
    await closeSource();
    // The check read page 1 only; a run reads page 2 as well.
    const res = await run(['--connector', 'team', '--dry-run', '--replay', har]);
    expect(res.code).toBe(8);
    expect(res.stderr).toContain(`no recorded answer for GET ${origin}/users?page=2 in ${har}`);
  });
});
