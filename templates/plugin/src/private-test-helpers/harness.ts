/**
 * What every test of this connector starts with: a real emulator on a free port (the oaakit test
 * kit), a fresh state directory, and `run()`, the connector run the way `oaa run` runs it
 * (runConnector: extract, validate, diff, push, state). Not part of the build.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@oaakit/client';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, runConnector } from '@oaakit/runner';
import type { RunResult } from '@oaakit/runner';
import connector from '../index.js';

/** The sample export the connector reads in tests. */
export const fixture = fileURLToPath(new URL('../../fixtures/source.json', import.meta.url));
/** The token the tests give the connector as its secret. */
export const token = 'test-token';

/** An emulator, a state directory and the connector run against them. */
export interface Harness {
  emulator: TestEmulator;
  /** Runs the connector on `source` (default: the fixture) into the emulator. */
  run(source?: string, dryRun?: boolean): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const emulator = await startTestEmulator();
  const stateDir = await mkdtemp(join(tmpdir(), '__CONNECTOR_ID__-state-'));
  return {
    emulator,
    run: (source = fixture, dryRun = false) =>
      runConnector({
        connector,
        config: { source },
        secrets: { token },
        provider: '__DISPLAY_NAME__',
        dataSource: '__DISPLAY_NAME__ (test)',
        client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
        state: new StateStore(stateDir),
        dryRun,
      }),
    close: async () => {
      await emulator.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** The id of the data source a run pushed to. */
export function pushedId(ref: RunResult['dataSource']): string {
  if (!('id' in ref)) throw new Error('nothing was pushed');
  return ref.id;
}
