/** `oaa run --check`: config, secrets and the connector's own check, with nothing pushed. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

let emulator: TestEmulator;
let work: { dir: string; remove: () => Promise<void> };

async function check(config: Record<string, unknown>, args: string[] = []) {
  const connectors = [
    { id: 'team', plugin: fixture('roster'), provider: 'Roster', dataSource: 'team', config },
  ];
  await writeFile(join(work.dir, 'oaa.config.json'), JSON.stringify({ connectors }));
  return oaa(['run', '--check', ...args], {
    cwd: work.dir,
    env: emulator.env,
  });
}

beforeAll(async () => {
  emulator = await startTestEmulator({ role: 'admin' });
  work = await tempDir('oaa-cli-check-');
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

describe('oaa run --check', () => {
  it('checks each connector and pushes nothing', async () => {
    const res = await check({ users: ['ada'] }, ['--json']);
    expect(res.code).toBe(0);
    expect(json<{ checks: { connectorId: string; checked: boolean }[] }>(res).checks).toEqual([
      expect.objectContaining({ connectorId: 'team', checked: false }),
    ]);
    const calls = await emulator.admin.calls.list({
      method: 'POST',
    });
    expect(calls.filter((c) => c.path.includes('providers'))).toEqual([]);
  });

  it('names the config key a bad config gets wrong, with the configuration exit code', async () => {
    const res = await check({ users: 'ada' });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('connectors[0].config.users');
  });
});
