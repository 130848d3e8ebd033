/**
 * `oaa events list` and `oaa events tail` through the built binary, against an emulator on port 0:
 * the tail resumes from its saved cursor and, across restarts (an interrupted --follow included),
 * shows every event exactly once.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { until } from '@oaakit/emulator/testing';
import { startEmulator, type RunningEmulator } from '@oaakit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, oaa, spawnOaa, tempDir, type OaaResult } from '../private-test-helpers/run-oaa.js';

const apiKey = `oaa_cli_test_${randomBytes(16).toString('hex')}`;
let emulator: RunningEmulator;
let work: { dir: string; remove: () => Promise<void> };
let providerId = '';

const env = () => ({ OAA_URL: emulator.url, OAA_API_KEY: apiKey, OAA_STATE_DIR: join(work.dir, 'state') });
const run = (args: string[]): Promise<OaaResult> => oaa(args, { env: env(), cwd: work.dir });

async function dataSource(name: string): Promise<string> {
  const res = await fetch(`${emulator.url}/api/v1/providers/custom/${providerId}/datasources`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: providerId, name }),
  });
  return ((await res.json()) as { value: { id: string } }).value.id;
}

const lines = (text: string): { entity_name: string; event_type: string }[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { entity_name: string; event_type: string });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  work = await tempDir('oaa-cli-events-');
  const res = await fetch(`${emulator.url}/api/v1/providers/custom`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Wiki', custom_template: 'application' }),
  });
  providerId = ((await res.json()) as { value: { id: string } }).value.id;
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

describe('oaa events', () => {
  it('lists events with a filter and a start, as a table or JSON', async () => {
    const id = await dataSource('list-a');
    const listed = await run([
      'events',
      'list',
      '--since',
      '1h',
      '--filter',
      'event_type eq "DATASOURCE_REGISTERED"',
      '--json',
    ]);
    expect(listed.code).toBe(0);
    expect(json<{ entity_id: string }[]>(listed).map((e) => e.entity_id)).toContain(id);
    const table = await run(['events', 'list', '--filter', 'name co "registered"']);
    expect(table.stdout).toMatch(/TIME\s+SEVERITY\s+TYPE\s+ENTITY\s+MESSAGE/);
    expect(table.stdout).toContain('list-a');
    const bad = await run(['events', 'list', '--filter', 'colour eq "red"']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('filter');
    const old = await run(['events', 'list', '--since', '40d']);
    expect(old.stderr).toContain('filter.start_time');
    const usage = await run(['events', 'list', '--since', 'yesterday']);
    expect(usage.stderr).toContain('--since must be a duration');
  });

  it('waits after ResourceExhaused (OAA_RESOURCE_EXHAUSTED_WAIT_MS here; one minute by default), then answers', async () => {
    await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '/api/preview/events', code: 'ResourceExhaused' }),
    });
    const r = await oaa(['events', 'list', '--json'], {
      env: { ...env(), OAA_RESOURCE_EXHAUSTED_WAIT_MS: '50' },
      cwd: work.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/GET \/api\/preview\/events failed \(429\); retrying in 50 ?ms/);
    expect(json<unknown[]>(r).length).toBeGreaterThan(0);
  });

  it('tails from a saved cursor: across restarts no event twice, none skipped', async () => {
    const shown: string[] = [];
    const tail = async (): Promise<void> => {
      const r = await run(['events', 'tail', '--json']);
      expect(r.code, r.stderr).toBe(0);
      shown.push(...lines(r.stdout).map((e) => `${e.event_type}:${e.entity_name}`));
    };
    await tail();
    const firstCount = shown.length;
    expect(shown).toContain('DATASOURCE_REGISTERED:list-a');
    await tail();
    expect(shown.length).toBe(firstCount);
    for (const n of ['t1', 't2', 't3']) await dataSource(n);
    await tail();
    expect(shown.slice(firstCount)).toEqual(['t1', 't2', 't3'].map((n) => `DATASOURCE_REGISTERED:${n}`));

    // An interrupted --follow, then more events, then a plain tail.
    const child = spawnOaa(['events', 'tail', '--follow', '--json', '--poll-interval', '1'], {
      env: env(),
      cwd: work.dir,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await dataSource('f1');
    await until('the follower to show f1', () => out.includes('"f1"'));
    child.kill('SIGINT');
    await exited;
    shown.push(...lines(out).map((e) => `${e.event_type}:${e.entity_name}`));
    await dataSource('f2');
    await tail();
    const tailEvents = shown.slice(firstCount);
    expect(tailEvents).toEqual(['t1', 't2', 't3', 'f1', 'f2'].map((n) => `DATASOURCE_REGISTERED:${n}`));
  }, 120_000);
});
