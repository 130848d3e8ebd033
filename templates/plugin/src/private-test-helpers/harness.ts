/**
 * What every test of this connector starts with: a real emulator on a free port (the oaakit test
 * kit), a fresh state directory, and `run()`, the connector run the way `oaa run` runs it
 * (runConnector: extract, validate, diff, push, state); and the source served over HTTP
 * (`serveSource`). Not part of the build.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** The source system over HTTP, on a free port of 127.0.0.1. */
export interface SourceServer {
  /** The URL of the export, for the `source` of the config. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the JSON export `file` (default: the fixture) as the source system would: every request
 * with `Authorization: Bearer <token>` gets it, any other gets 401.
 */
export async function serveSource(file = fixture): Promise<SourceServer> {
  const body = await readFile(file);
  const server = createServer((req, res) => {
    const allowed = req.headers.authorization === `Bearer ${token}`;
    res
      .writeHead(allowed ? 200 : 401, { 'content-type': 'application/json' })
      .end(allowed ? body : JSON.stringify({ error: 'invalid token' }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/export.json`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
