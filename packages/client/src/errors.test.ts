import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OaaError } from '@oaakit/core';
import { createClient } from './client.js';
import { ServiceError } from './errors.js';
import { startClientTestEmulator } from './private-test-helpers/emulator.js';
import type { ClientTestEmulator } from './private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

/** Every way a user might print or serialize an error. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [e.message, String(e.stack), JSON.stringify(e), inspect(e, { depth: 10 }), String(e)];
}

function expectNoSecret(error: unknown, secret: string): void {
  for (const text of renderings(error)) expect(text).not.toContain(secret);
}

describe('service errors', () => {
  it('gives 401 with code, request id and resolution, and never shows the key', async () => {
    const wrongKey = 'oaa_wrong_key_that_must_stay_secret_123456';
    const client = createClient({ url: emu.url, apiKey: wrongKey, retry: false });
    const error = await client.providers.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toBeInstanceOf(OaaError);
    expect(error).toMatchObject({
      status: 401,
      code: 'Unauthenticated',
      method: 'GET',
      path: '/api/v1/providers/custom/x',
      retryable: false,
    });
    expect((error as ServiceError).requestId).toBeTruthy();
    expect((error as ServiceError).hints.length).toBeGreaterThan(0);
    expectNoSecret(error, wrongKey);
  });

  it('gives 404 NotFound for an unknown provider, with the request id in the message', async () => {
    const error = (await emu
      .client()
      .providers.get('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ status: 404, code: 'NotFound' });
    expect(error.message).toContain(error.requestId!);
    const calls = await emu.admin.calls.list({ method: 'GET' });
    expect(calls.at(-1)?.request_id).toBe(error.requestId);
    expectNoSecret(error, emu.apiKey);
  });

  it('gives 400 with field violations for a bad data source create', async () => {
    const client = emu.client();
    const { provider } = await client.providers.findOrCreate({ name: 'App', template: 'application' });
    const error = (await client.dataSources
      .create({ providerId: provider.id, name: 'bad\u0000name' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(error.violations.length).toBeGreaterThan(0);
    expect(error.violations[0]).toEqual({ field: expect.any(String), description: expect.any(String) });
    expectNoSecret(error, emu.apiKey);
  });

  it('turns a refused connection into a retryable NETWORK_ERROR without the key', async () => {
    const url = emu.url;
    await emu.close();
    const logged: unknown[] = [];
    const client = createClient({
      url,
      apiKey: emu.apiKey,
      retry: { retries: 1, minDelayMs: 1 },
      logger: { debug: (o) => logged.push(o), warn: (o) => logged.push(o) },
    });
    const error = await client.providers
      .list()
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    expectNoSecret(error, emu.apiKey);
    expect(JSON.stringify(logged)).not.toContain(emu.apiKey);
    emu = await startClientTestEmulator();
  });

  it('turns a slow answer into a retryable TIMEOUT', async () => {
    await emu.admin.faults.add({ method: 'GET', path: '/api/v1/providers/custom', latency_ms: 1000 });
    const error = await emu
      .client({ timeoutMs: 100, retry: false })
      .providers.list()
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true });
  });
});
