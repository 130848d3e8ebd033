import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceError } from './errors.js';
import type { ClientLogger } from './logger.js';
import { losingFirstAnswer } from './private-test-helpers/lossy-fetch.js';
import { appPayload, randomUsers } from './private-test-helpers/payloads.js';
import { startClientTestEmulator } from './private-test-helpers/emulator.js';
import type { ClientTestEmulator } from './private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

/** A logger keeping the retry records, as a user would read them. */
function recorder(): { logger: ClientLogger; retries: Record<string, unknown>[] } {
  const retries: Record<string, unknown>[] = [];
  return { logger: { debug: () => undefined, warn: (o) => retries.push(o) }, retries };
}

function losingCreate(path: string): typeof fetch {
  return losingFirstAnswer((r) => r.method === 'POST' && r.path === path);
}

describe('retries against emulator faults', () => {
  it('a push that meets two 503s then succeeds', async () => {
    const client = emu.client();
    const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'prod' });
    await emu.admin.faults.add({ method: 'POST', path: '*:push', status: 503, count: 2 });
    const result = await client.pushPayload({
      providerId: provider.id,
      dataSourceId: dataSource.id,
      payload: appPayload(randomUsers(3)),
    });
    expect(result).toMatchObject({ mode: 'single', warnings: [] });
    const pushes = await emu.admin.calls.list({
      method: 'POST',
      path: `/api/v1/providers/custom/${provider.id}/datasources/${dataSource.id}:push`,
    });
    expect(pushes.map((c) => c.status)).toEqual([503, 503, 200]);
  });

  it('waits the configured delay after ResourceExhaused', async () => {
    const { logger, retries } = recorder();
    const client = emu.client({ logger, retry: { resourceExhaustedDelayMs: 25, minDelayMs: 1 } });
    await emu.admin.faults.add({ method: 'GET', path: '/api/v1/providers/custom', code: 'ResourceExhaused' });
    expect(await client.providers.list().toArray()).toEqual([]);
    expect(retries).toEqual([
      expect.objectContaining({ code: 'ResourceExhaused', status: 429, delayMs: 25, attempt: 1 }),
    ]);
  });

  it('honours Retry-After on 429', async () => {
    const { logger, retries } = recorder();
    const client = emu.client({ logger });
    await emu.admin.faults.add({
      method: 'GET',
      path: '/api/v1/providers/custom',
      status: 429,
      retry_after_s: 1,
    });
    expect(await client.providers.list().toArray()).toEqual([]);
    expect(retries).toEqual([expect.objectContaining({ status: 429, delayMs: 1000 })]);
  });

  it('a create whose answer was lost after the server created the provider makes no duplicate', async () => {
    const client = emu.client({ fetch: losingCreate('/api/v1/providers/custom') });
    const provider = await client.providers.create({ name: 'Once', template: 'application' });
    expect(provider.name).toBe('Once');
    const all = await emu.client().providers.list().toArray();
    expect(all.map((p) => p.id)).toEqual([provider.id]);
    const creates = await emu.admin.calls.list({ method: 'POST', path: '/api/v1/providers/custom' });
    expect(creates).toHaveLength(1);
  });

  it('a data source create whose answer was lost makes no duplicate', async () => {
    const { provider } = await emu.client().providers.findOrCreate({ name: 'App', template: 'application' });
    const path = `/api/v1/providers/custom/${provider.id}/datasources`;
    const client = emu.client({ fetch: losingCreate(path) });
    const { dataSource, created } = await client.dataSources.findOrCreate({
      providerId: provider.id,
      name: 'prod',
    });
    expect(created).toBe(true);
    expect((await client.dataSources.list({ providerId: provider.id }).toArray()).map((d) => d.id)).toEqual([
      dataSource.id,
    ]);
  });

  it('a delete whose answer was lost counts as done when the retry finds the provider gone', async () => {
    const { provider } = await emu
      .client()
      .providers.findOrCreate({ name: 'Doomed', template: 'application' });
    const client = emu.client({ fetch: losingFirstAnswer((r) => r.method === 'DELETE') });
    await client.providers.delete(provider.id);
    expect(await client.providers.findByName('Doomed')).toBeUndefined();
    await expect(emu.client({ retry: false }).providers.delete(provider.id)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('a create that failed before reaching the server is sent again', async () => {
    const client = emu.client();
    await emu.admin.faults.add({ method: 'POST', path: '/api/v1/providers/custom', status: 503 });
    const provider = await client.providers.create({ name: 'Again', template: 'application' });
    expect((await client.providers.list().toArray()).map((p) => p.id)).toEqual([provider.id]);
  });

  it('when retries run out the error carries the server code and request_id', async () => {
    const client = emu.client({ retry: { retries: 2, minDelayMs: 1 } });
    await emu.admin.faults.add({ method: 'GET', path: '/api/v1/providers/custom/*', status: 503, count: 10 });
    const error = (await client.providers.get('abc').catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ status: 503, code: 'Unavailable', retryable: true });
    const calls = await emu.admin.calls.list({ method: 'GET', path: '/api/v1/providers/custom/abc' });
    expect(calls).toHaveLength(3);
    expect(error.requestId).toBe(calls.at(-1)?.request_id);
  });

  it('does not retry a create that the server rejected as invalid', async () => {
    const client = emu.client();
    await expect(client.providers.create({ name: 'x', template: 'bad' as 'hris' })).rejects.toMatchObject({
      status: 400,
    });
    expect(await emu.admin.calls.list({ method: 'POST', path: '/api/v1/providers/custom' })).toHaveLength(1);
  });
});
