/**
 * `oaa providers update --provisioning | --no-provisioning` through the built binary, against an
 * emulator started by the test on port 0: an hris provider becomes the system of record.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import { startEmulator } from '@oaakit/emulator';
import type { RunningEmulator } from '@oaakit/emulator';
import type { ErrorJson } from '../output/render-error.js';
import { json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

const apiKey = `oaa_cli_test_${randomBytes(16).toString('hex')}`;
const ONLY_HRIS = 'only hris providers can be the system of record';
let emulator: RunningEmulator;
let work: { dir: string; remove: () => Promise<void> };

function run(args: string[]): Promise<OaaResult> {
  return oaa(args, { env: { OAA_URL: emulator.url, OAA_API_KEY: apiKey }, cwd: work.dir });
}

/** A call to the emulator's HTTP interface, for setup and for what the CLI did. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(emulator.url + path, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The PATCH calls the emulator answered so far. */
async function patchCalls(): Promise<unknown[]> {
  return (await call<{ values: unknown[] }>('GET', '/_emulator/calls?method=PATCH')).values;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  work = await tempDir('oaa-cli-providers-update-');
  for (const [name, template] of [
    ['Workday', 'hris'],
    ['Wiki', 'application'],
  ])
    await call('POST', '/api/v1/providers/custom', { name, custom_template: template });
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

// Every step is a `node` process; on a loaded 2-core machine one takes seconds.
describe('oaa providers update', { timeout: 120_000 }, () => {
  it('makes an hris provider the system of record, shown by providers get, and turns it off', async () => {
    const before = await run(['providers', 'get', 'Workday']);
    expect(before.stdout).toMatch(/^provisioning: +-$/m);

    const on = await run(['providers', 'update', 'Workday', '--provisioning', '--json']);
    expect(on.code).toBe(0);
    const provider = json<Provider>(on);
    expect(provider).toMatchObject({ name: 'Workday', custom_template: 'hris', provisioning: true });
    expect((await run(['providers', 'get', 'Workday'])).stdout).toMatch(/^provisioning: +true$/m);

    const off = await run(['providers', 'update', provider.id, '--no-provisioning']);
    expect(off.code).toBe(0);
    expect(off.stdout.trim()).toBe('Provider "Workday" is not the system of record (provisioning off).');
    expect((await run(['providers', 'get', 'Workday'])).stdout).toMatch(/^provisioning: +false$/m);
    expect(on.stdout + off.stdout + on.stderr + off.stderr).not.toContain(apiKey);
  });

  it('exits 2 naming provisioning for a provider of another template, which keeps its value', async () => {
    const res = await run(['providers', 'update', 'Wiki', '--provisioning']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('provisioning');
    expect(res.stderr).toContain(ONLY_HRIS);
    const asJson = await run(['providers', 'update', 'Wiki', '--provisioning', '--json']);
    const error = json<{ error: ErrorJson }>(asJson).error;
    expect(error.exitCode).toBe(2);
    expect(error.violations).toEqual([
      { field: 'provisioning', description: expect.stringContaining(ONLY_HRIS) },
    ]);
    expect(json<Provider>(await run(['providers', 'get', 'Wiki', '--json'])).provisioning).toBeNull();
  });

  it('exits 7 for a provider that does not exist', async () => {
    const res = await run(['providers', 'update', 'No Such HR', '--provisioning']);
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('no provider named "No Such HR"');
  });

  it('exits 64 without --provisioning or --no-provisioning, before calling the service', async () => {
    const calls = (await patchCalls()).length;
    const res = await run(['providers', 'update', 'Workday']);
    expect(res.code).toBe(64);
    expect(res.stderr).toContain('nothing to change: give --provisioning or --no-provisioning');
    expect(await patchCalls()).toHaveLength(calls);
  });

  it('documents the flag with examples in its help', async () => {
    const res = await run(['providers', 'update', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--[no-]provisioning');
    expect(res.stdout).toContain('$ oaa providers update "Workday" --provisioning');
  });
});
