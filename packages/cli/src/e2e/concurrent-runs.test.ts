/**
 * Two `oaa run` at once in one working directory, both on the embedded emulator, so two processes
 * share its database file. Neither may fail for the other: SQLite's `database is locked` once came
 * back as 500s, and both runs creating the provider once made one fail with "same name exists".
 * Two config files push to the same provider and data source under different connector ids, so the
 * state lock keeps neither from running.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataSource, Provider } from '@oaakit/client';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

let work: { dir: string; remove: () => Promise<void> };

beforeEach(async () => {
  work = await tempDir('oaa-cli-concurrent-');
});

afterEach(async () => {
  await work.remove();
});

/** Enough users that the pushes take a while and overlap. */
const users = Array.from({ length: 3000 }, (_, i) => `user${i}`);

async function config(id: string): Promise<string> {
  const file = `${id}.json`;
  const connectors = [
    { id, plugin: fixture('roster'), provider: 'Roster', dataSource: 'team', config: { users } },
  ];
  await writeFile(join(work.dir, file), JSON.stringify({ connectors }));
  return file;
}

describe('two oaa run at once on one embedded emulator', () => {
  it.each([1, 2, 3])(
    'both push, into one provider and one data source (round %i)',
    async () => {
      const [a, b] = await Promise.all([config('a'), config('b')]);
      const runs = await Promise.all([a, b].map((file) => oaa(['run', '-c', file], { cwd: work.dir })));
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });

      const providers = json<Provider[]>(await oaa(['providers', 'list', '--json'], { cwd: work.dir }));
      expect(providers.map((p) => p.name)).toEqual(['Roster']);
      const sources = json<DataSource[]>(
        await oaa(['datasources', 'list', '--provider', 'Roster', '--json'], { cwd: work.dir }),
      );
      expect(sources).toEqual([expect.objectContaining({ name: 'team', status: 'SUCCESS' })]);
    },
    120_000,
  );
});
