/**
 * With no target configured, commands use the embedded emulator, its database in the state
 * directory: a later command sees what an earlier one pushed.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource, Provider } from '@oaakit/client';
import type { PushOutput } from '../commands/push.js';
import type { RunOutput } from '../run/run-outcome.js';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

let work: { dir: string; remove: () => Promise<void> };
let stateDir: string;

beforeAll(async () => {
  work = await tempDir('oaa-cli-embedded-');
  stateDir = join(work.dir, 'state');
});

afterAll(async () => {
  await work.remove();
});

describe('the embedded emulator', () => {
  it('takes a push, with a note on stderr and clean JSON on stdout', async () => {
    const res = await oaa(
      [
        'push',
        fixture('payloads/hris-valid.json.gz'),
        '--provider',
        'HR',
        '--data-source',
        'main',
        '--create-provider',
        '--state-dir',
        stateDir,
        '--json',
      ],
      { cwd: work.dir },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`Using the embedded emulator (${stateDir})`);
    expect(json<PushOutput>(res)).toMatchObject({
      template: 'hris',
      provider: { name: 'HR', created: true },
      dataSource: { name: 'main', created: true },
    });
    expect(existsSync(join(stateDir, 'emulator.db'))).toBe(true);
  });

  it('shows what an earlier command pushed to a later one', async () => {
    const providers = json<Provider[]>(
      await oaa(['providers', 'list', '--json'], { cwd: work.dir, env: { OAA_STATE_DIR: stateDir } }),
    );
    expect(providers).toEqual([expect.objectContaining({ name: 'HR', custom_template: 'hris' })]);
    const sources = json<DataSource[]>(
      await oaa(['datasources', 'list', '--provider', 'HR', '--json', '--state-dir', stateDir], {
        cwd: work.dir,
      }),
    );
    expect(sources).toEqual([expect.objectContaining({ name: 'main', status: 'SUCCESS' })]);
  });

  it('keeps state directories apart, .oaa in the current directory by default', async () => {
    const res = await oaa(['providers', 'list'], { cwd: work.dir });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe('No providers.');
    expect(res.stderr).toContain(`Using the embedded emulator (${join(work.dir, '.oaa')})`);
  });

  it('runs a config with no target into the embedded emulator, then reports no change', async () => {
    const config = {
      connectors: [{ id: 'team', plugin: fixture('roster'), provider: 'Roster', dataSource: 'team' }],
    };
    await writeFile(join(work.dir, 'oaa.config.json'), JSON.stringify(config));
    const first = await oaa(['run', '--state-dir', stateDir], { cwd: work.dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^team +pushed +Roster +team /m);

    const again = json<RunOutput>(await oaa(['run', '--state-dir', stateDir, '--json'], { cwd: work.dir }));
    expect(again.results[0]).toMatchObject({ status: 'skipped', skipped: 'unchanged' });

    const providers = json<Provider[]>(
      await oaa(['providers', 'list', '--json', '--state-dir', stateDir], { cwd: work.dir }),
    );
    expect(providers.map((p) => p.name).sort()).toEqual(['HR', 'Roster']);
  });
});
