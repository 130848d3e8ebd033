/**
 * Runs the connector the way `oaa run` does (runConnector: extract, validate, diff, push, state)
 * against a real emulator on a free port, then reads what the emulator's graph holds.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@oaakit/client';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, checkConnector, runConnector } from '@oaakit/runner';
import type { RunResult } from '@oaakit/runner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import connector from './index.js';

const fixture = fileURLToPath(new URL('../fixtures/source.json', import.meta.url));
const token = 'test-token';

let emulator: TestEmulator;
let stateDir: string;

beforeEach(async () => {
  emulator = await startTestEmulator();
  stateDir = await mkdtemp(join(tmpdir(), '__CONNECTOR_ID__-state-'));
});

afterEach(async () => {
  await emulator.close();
  await rm(stateDir, { recursive: true, force: true });
});

function run(source = fixture, dryRun = false): Promise<RunResult> {
  return runConnector({
    connector,
    config: { source },
    secrets: { token },
    provider: '__DISPLAY_NAME__',
    dataSource: '__DISPLAY_NAME__ (test)',
    client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
    state: new StateStore(stateDir),
    dryRun,
  });
}

function pushedId(ref: RunResult['dataSource']): string {
  if (!('id' in ref)) throw new Error('nothing was pushed');
  return ref.id;
}

describe('__CONNECTOR_ID__', () => {
  it('passes its check on the fixture', async () => {
    const result = await checkConnector({ connector, config: { source: fixture }, secrets: { token } });
    expect(result.checked).toBe(true);
  });

  it('pushes the fixture into the emulator: employees, departments and managers', async () => {
    const result = await run();
    expect(result.status).toBe('pushed');
    expect(result.counts).toMatchObject({ employees: 3, groups: 2 });

    const dataSourceId = pushedId(result.dataSource);
    const employees = await emulator.admin.graph.nodes({
      dataSourceId,
      type: 'OAA.__SOURCE_TYPE__.HRISEmployee',
    });
    expect(employees.map((e) => e.name).sort()).toEqual(['Alice Smith', 'Bob Jones', 'Carol Diaz']);
    const id = (name: string): string | undefined => employees.find((e) => e.name === name)?.id;
    expect(await emulator.admin.graph.edges({ dataSourceId, kind: 'MANAGED_BY' })).toContainEqual(
      expect.objectContaining({ src: id('Bob Jones'), dst: id('Alice Smith') }),
    );
  });

  it('skips a second run when nothing changed', async () => {
    await run();
    expect((await run()).status).toBe('skipped');
  });

  it('reads the export over HTTP, sending the token', async () => {
    const body = await readFile(fixture);
    const server = createServer((req, res) => {
      const allowed = req.headers.authorization === `Bearer ${token}`;
      res.writeHead(allowed ? 200 : 401, { 'content-type': 'application/json' }).end(allowed ? body : '{}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await run(`http://127.0.0.1:${port}/export`, true);
      expect(result.status).toBe('dry-run');
      expect(result.counts.employees).toBe(3);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
