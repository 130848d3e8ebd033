/**
 * A real emulator on port 0, a temporary config directory and helpers to run the fixture
 * connectors against it. Not part of the build (see tsconfig.json).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, createEmulatorAdmin } from '@oaakit/client';
import type { Client, ClientOptions, EmulatorAdmin, EmulatorCall } from '@oaakit/client';
import { startEmulator } from '@oaakit/emulator';
import { loadConfig } from '../config/load-config.js';
import type { LoadedConfig } from '../config/load-config.js';
import type { RunResult } from '../pipeline/run-types.js';
import { runConfiguredConnector } from '../run-configured.js';
import type { RunConfiguredOptions } from '../run-configured.js';
import { StateStore } from '../state/state-store.js';

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
  pushCalls(): Promise<EmulatorCall[]>;
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
  const apiKey = `oaa_test_secret_${randomBytes(12).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'member' }] });
  const dir = await mkdtemp(join(tmpdir(), 'oaa-runner-'));
  const client = (options: Partial<ClientOptions> = {}): Client =>
    createClient({
      url: emulator.url,
      apiKey,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
      ...options,
    });
  const admin = createEmulatorAdmin({ url: emulator.url, adminKey: emulator.adminKey });
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
    async stateFiles(connectorId) {
      const stateDir = state().dirOf(connectorId);
      const names = await readdir(stateDir).catch(() => [] as string[]);
      const out: Record<string, string> = {};
      for (const name of names.filter((n) => n !== 'lock').sort()) {
        out[name] = createHash('sha256')
          .update(await readFile(join(stateDir, name)))
          .digest('hex');
      }
      return out;
    },
    async pushCalls() {
      const calls = await admin.calls.list();
      return calls.filter((c) => c.method === 'POST' && /:(push|parts)$/.test(c.path));
    },
    async close() {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
