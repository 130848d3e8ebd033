/**
 * The README's main job (`npm run quickstart`): the example config pushes the sample CSV export into
 * the embedded emulator, with no target and no OAA_* variables, and later commands in the same
 * directory read back the provider and its data source.
 */
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource, Provider } from '@oaakit/client';
import { json, oaa, tempDir } from '../../packages/cli/src/private-test-helpers/run-oaa.js';
import type { OaaResult } from '../../packages/cli/src/private-test-helpers/run-oaa.js';

const here = dirname(fileURLToPath(import.meta.url));
const EXAMPLE = resolve(here, '../../examples/quickstart');
const PLUGIN = resolve(here, '../../plugins/csv-hris');

let work: { dir: string; remove: () => Promise<void> };

/**
 * `oaa ...` in the copied example. The child never sees OAA_* variables (see `cleanEnv`); its oclif
 * config directory is private, so a login saved on this machine cannot redirect it to a service.
 */
function quickstart(args: string[]): Promise<OaaResult> {
  return oaa(args, { cwd: work.dir, env: { XDG_CONFIG_HOME: join(work.dir, 'xdg-config') } });
}

beforeAll(async () => {
  work = await tempDir('oaa-e2e-quickstart-');
  // A fresh clone has no state: leave out the `.oaa` directory an earlier quickstart left behind.
  await cp(EXAMPLE, work.dir, { recursive: true, filter: (src) => basename(src) !== '.oaa' });
  const configPath = join(work.dir, 'oaa.config.yaml');
  const config = await readFile(configPath, 'utf8');
  const adjusted = config.replace(/^(\s*plugin:\s*).*$/m, `$1${JSON.stringify(PLUGIN)}`);
  expect(adjusted).not.toBe(config);
  await writeFile(configPath, adjusted);
});

afterAll(async () => {
  await work?.remove();
});

describe('the quickstart on the embedded emulator', () => {
  it('pushes the sample export and prints the summary table', async () => {
    expect(existsSync(join(work.dir, '.oaa'))).toBe(false);
    const res = await quickstart(['run', '--config', 'oaa.config.yaml']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('Using the embedded emulator');
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/^CONNECTOR +STATUS +PROVIDER +DATA SOURCE +ENTITIES /);
    expect(lines[1]).toMatch(
      /^acme-hr +pushed +Acme HR +Acme HR export \(employees\.csv\) +employees 8, groups 6 /,
    );
    expect(existsSync(join(work.dir, '.oaa', 'emulator.db'))).toBe(true);
  });

  it('lists the provider it created', async () => {
    const res = await quickstart(['providers', 'list', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(json<Provider[]>(res)).toEqual([
      expect.objectContaining({ name: 'Acme HR', custom_template: 'hris' }),
    ]);
  });

  it('lists the data source, in status SUCCESS', async () => {
    const res = await quickstart(['datasources', 'list', '--provider', 'Acme HR', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(json<DataSource[]>(res)).toEqual([
      expect.objectContaining({ name: 'Acme HR export (employees.csv)', status: 'SUCCESS' }),
    ]);
  });
});
