/**
 * `oaa run` with a config file and the fixture connector, against an emulator started by the test;
 * pushes are counted on the emulator's recorded calls.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import type { ErrorJson } from '../output/render-error.js';
import type { RunOutput } from '../run/run-outcome.js';
import { fixture, json, oaa, spawnOaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

let emulator: TestEmulator;
let work: { dir: string; remove: () => Promise<void> };

/** A connector entry of the roster fixture. */
function roster(
  id: string,
  config: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { id, plugin: fixture('roster'), provider: 'Roster', dataSource: `roster ${id}`, config, ...extra };
}

async function writeConfig(connectors: Record<string, unknown>[], name = 'oaa.config.json'): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, JSON.stringify({ connectors }, null, 2));
  return path;
}

function run(args: string[]): Promise<OaaResult> {
  return oaa(['run', ...args], { cwd: work.dir, env: emulator.env });
}

async function pushCalls(): Promise<number> {
  return (await emulator.admin.calls.pushes()).length;
}

beforeAll(async () => {
  emulator = await startTestEmulator({ role: 'admin' });
  work = await tempDir('oaa-cli-run-');
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

describe('oaa run', () => {
  it('shows the diff of a dry run and pushes nothing', async () => {
    await writeConfig([roster('team')]);
    const res = await run(['--dry-run']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('team: Roster / roster team (first push: everything is new)');
    expect(res.stdout).toMatch(/^ {2}KIND +ADDED +REMOVED +CHANGED$/m);
    expect(res.stdout).toMatch(/^ {2}local_users +5 +0 +0$/m);
    expect(await pushCalls()).toBe(0);
  });

  it('pushes, then prints the summary table and the warnings', async () => {
    const res = await run([]);
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^CONNECTOR +STATUS +PROVIDER +DATA SOURCE +ENTITIES +BYTES +PUSH +PARSE +WARNINGS +DURATION$/,
    );
    expect(lines[1]).toMatch(
      /^team +pushed +Roster +roster team +applications 1, local_users 5, local_groups 1, local_roles 1, permissions 1 +\d+ B +single +WARNING +5 +\S+/,
    );
    expect(res.stdout).toContain(
      'team: parse WARNING, data source SUCCESS, OAA_PUSH event WARNING with 5 warning(s)',
    );
    expect(res.stdout).toContain('Warnings of team (5):');
    expect(await pushCalls()).toBe(1);
    const providers = json<Provider[]>(await oaa(['providers', 'list', '--json'], { env: emulator.env }));
    expect(providers.map((p) => p.name)).toContain('Roster');
  });

  it('reports no change on an unchanged second run, and makes no push', async () => {
    const res = await run(['--json']);
    expect(res.code).toBe(0);
    const out = json<RunOutput>(res);
    expect(out.results[0]).toMatchObject({ connectorId: 'team', status: 'skipped', skipped: 'unchanged' });
    expect(out.failures).toEqual([]);
    expect(await pushCalls()).toBe(1);
  });

  it('refuses a mass deletion with exit 3 unless --force, and says so in a dry run', async () => {
    await writeConfig([roster('team', { users: ['ada'] })]);
    const dry = await run(['--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'a real run would be refused: it removes 4 of 5 local_users (80% > 20%); --force overrides',
    );

    const refused = await run([]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^Error: connector "team": .*remove 4 of 5 local_users/m);
    expect(refused.stderr).toMatch(/^Hint: .*--force/m);
    expect(await pushCalls()).toBe(1);

    const forced = await run(['--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(
      'team: deletion guard overridden by --force (removes 4 of 5 local_users)',
    );
    expect(await pushCalls()).toBe(2);
  });

  it('fails on warnings with exit 6 when asked, and writes the report and the payload', async () => {
    await writeConfig([roster('team', { users: ['ada', 'bob'] })]);
    const report = join(work.dir, 'report.json');
    const payload = join(work.dir, 'payload.json');
    const res = await run(['--fail-on-warnings', '--report', report, '--save-payload', payload]);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('Error: the run finished with 2 warnings, and --fail-on-warnings is set');
    const written = JSON.parse(await readFile(report, 'utf8')) as RunOutput;
    expect(written.results[0]).toMatchObject({ status: 'pushed', counts: { local_users: 2 } });
    const saved = JSON.parse(await readFile(payload, 'utf8')) as {
      applications: { local_users: { name: string }[] }[];
    };
    expect(saved.applications[0]?.local_users.map((u) => u.name)).toEqual(['ada', 'bob']);
  });

  it('stops on validation errors with exit 2 and every violation', async () => {
    await writeConfig([roster('team', { users: ['ada', 'bob'], invalid: true })]);
    const res = await run([]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^ {2}applications\[0\]\.local_users\[0\]\.groups\[0\]: .*no-such-group/m);
  });

  it('names the connector when it fails mid-extraction (exit 8), and keeps going with the others', async () => {
    await writeConfig([
      roster('broken', { failAfter: 2 }, { dataSource: 'roster broken' }),
      roster('team', { users: ['ada', 'bob'] }),
    ]);
    const res = await run(['--json']);
    expect(res.code).toBe(8);
    const { error } = json<{ error: ErrorJson }>(res);
    expect(error.message).toBe('1 of 2 connectors failed: broken');
    const details = error.details as unknown as RunOutput;
    expect(details.failures[0]).toMatchObject({ connectorId: 'broken', error: { code: 'EXTRACT_FAILED' } });
    expect(JSON.stringify(details.failures[0])).toContain('roster source went away after 2 users');
    expect(details.results.map((r) => r.connectorId)).toEqual(['team']);

    const one = await run(['--connector', 'broken']);
    expect(one.code).toBe(8);
    expect(one.stderr).toMatch(/^Error: .*"broken"/m);
  });

  it('names the wrong key of a bad config file, exit 5', async () => {
    const path = await writeConfig([{ ...roster('team'), dataSoruce: 'typo' }], 'bad.config.json');
    const res = await run(['--config', path]);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('connectors[0]');
    expect(res.stderr).toContain('dataSoruce');
  });

  it('stops on Ctrl-C with exit 130, pushing nothing and leaving the state as it was', async () => {
    await writeConfig([roster('slow', { delayMs: 60_000 })]);
    const before = await pushCalls();
    const child = spawnOaa(['run', '--progress'], {
      cwd: work.dir,
      env: emulator.env,
    });
    const exited = once(child, 'exit') as Promise<[number | null]>;
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('[slow] extract...')) resolve();
      });
    });
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(130);
    expect(stderr).toMatch(/^Error: .*/m);
    expect(await pushCalls()).toBe(before);

    await writeConfig([roster('slow')]);
    const dry = await run(['--dry-run']);
    expect(dry.stdout).toContain('slow: Roster / roster slow (first push: everything is new)');
  });

  it("reports the connector's warnings in --json and after the summary, redacted as in the log", async () => {
    await writeConfig([roster('notes', { warnings: 7 }, { dataSource: 'roster notes' })]);
    // The log at warn level, as JSON lines: the connector's warnings are still logged.
    const res = await oaa(['run', '--json'], {
      cwd: work.dir,
      env: { ...emulator.env, OAA_LOG_LEVEL: 'warn', OAA_LOG_FORMAT: 'json' },
    });
    expect(res.code).toBe(0);
    const [result] = json<RunOutput>(res).results;
    expect(result).toMatchObject({ connectorId: 'notes', status: 'pushed' });
    expect(result!.connectorWarnings).toHaveLength(7);
    expect(result!.connectorWarnings[0]).toEqual({
      message: 'roster note 1 of 7',
      details: { note: 1, password: '[REDACTED]' },
    });
    expect(result!.connectorWarningsOmitted).toBeUndefined();
    const logged = res.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.msg === 'string' && l.msg.startsWith('roster note'));
    expect(logged).toHaveLength(7);
    expect(logged[0]).toMatchObject({ connector: 'notes', note: 1, password: '[REDACTED]' });

    // Unchanged, so skipped: the connector ran all the same, and its warnings follow the summary.
    const human = await run([]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^notes +unchanged /m);
    expect(human.stdout).toContain('Connector warnings of notes (7):');
    expect(human.stdout).toContain('  roster note 1 of 7 {"note":1,"password":"[REDACTED]"}');
    expect(human.stdout).toContain('  roster note 5 of 7');
    expect(human.stdout).not.toContain('roster note 6 of 7');
    expect(human.stdout).toContain('  ... and 2 more (all of them are in --json and --report output)');
    for (const out of [res, human]) expect(out.stdout + out.stderr).not.toContain('roster-password');
  });
});
