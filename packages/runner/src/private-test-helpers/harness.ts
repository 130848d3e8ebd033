/**
 * A real emulator on port 0, a temporary config directory and helpers to run the fixture
 * connectors against it. Not part of the build (see tsconfig.json).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@oaakit/client';
import type { Client, ClientOptions } from '@oaakit/client';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { CallRecord, EmulatorAdmin } from '@oaakit/emulator/testing';
import { loadConfig } from '../config/load-config.js';
import type { LoadedConfig } from '../config/load-config.js';
import type { RunResult } from '../pipeline/run-types.js';
import { runConfiguredConnector } from '../run-configured.js';
import type { RunConfiguredOptions } from '../run-configured.js';
import { StateStore } from '../state/state-store.js';
import { stateFiles } from '../testing/state-files.js';

/** The fixture plugins' directory. */
export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../test-fixtures');

/** A fixture plugin's absolute path. */
export function fixture(name: string): string {
  return join(FIXTURES, name);
}

export interface Harness {
  url: string;
  /** The member key clients use; tests check it never leaks. */
  apiKey: string;
  admin: EmulatorAdmin;
  /** A temporary directory holding the config file and the state directory. */
  dir: string;
  /** A client with fast retries unless overridden. */
  client(options?: Partial<ClientOptions>): Client;
  /** Writes `oaa.config.json` with these connectors and loads it. */
  config(connectors: Record<string, unknown>[], extra?: Record<string, unknown>): Promise<LoadedConfig>;
  /** Runs one connector of the last written config; `offline` runs without a client. */
  run(
    connectorId: string,
    options?: Partial<RunConfiguredOptions> & { offline?: boolean },
  ): Promise<RunResult>;
  state(): StateStore;
  /** File name -> SHA-256 of the connector's state directory (lock file left out). */
  stateFiles(connectorId: string): Promise<Record<string, string>>;
  /** Push calls (`:push` and `:parts`) the emulator answered. */
  pushCalls(): Promise<CallRecord[]>;
  close(): Promise<void>;
}

/** A connector entry for the `app` fixture. */
export function appEntry(
  config: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: 'app',
    plugin: fixture('app'),
    provider: 'Fixture Provider',
    dataSource: 'fixture (main)',
    config,
    ...extra,
  };
}

export async function startHarness(): Promise<Harness> {
  const emulator = await startTestEmulator();
  const { apiKey, admin } = emulator;
  const dir = await mkdtemp(join(tmpdir(), 'oaa-runner-'));
  const client = (options: Partial<ClientOptions> = {}): Client =>
    createClient({
      url: emulator.url,
      apiKey,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
      ...options,
    });
  let loaded: LoadedConfig | undefined;
  const state = (): StateStore => new StateStore(join(dir, '.oaa/state'));
  return {
    url: emulator.url,
    apiKey,
    admin,
    dir,
    client,
    async config(connectors, extra = {}) {
      await writeFile(join(dir, 'oaa.config.json'), JSON.stringify({ connectors, ...extra }, null, 2));
      loaded = await loadConfig({ cwd: dir });
      return loaded;
    },
    run(connectorId, { offline = false, ...options } = {}) {
      if (loaded === undefined) throw new Error('write a config first');
      return runConfiguredConnector({
        loaded,
        connectorId,
        ...(offline ? {} : { client: client() }),
        ...options,
      });
    },
    state,
    stateFiles: (connectorId) => stateFiles(state().dirOf(connectorId)),
    pushCalls: () => admin.calls.pushes(),
    async close() {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
