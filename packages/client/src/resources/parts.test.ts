import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { losingFirstAnswer } from '../private-test-helpers/lossy-fetch.js';
import { appPayload, randomUsers } from '../private-test-helpers/payloads.js';
import { startClientTestEmulator } from '../private-test-helpers/emulator.js';
import type { ClientTestEmulator } from '../private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

describe('multipart parts', () => {
  it('assembles chunks in sequence order whatever order they arrive in, and a repeated number replaces', async () => {
    const client = emu.client();
    const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'prod' });
    const ref = { providerId: provider.id, dataSourceId: dataSource.id };
    const gz = gzipSync(JSON.stringify(appPayload(randomUsers(300))));
    const third = Math.ceil(gz.length / 3);
    const slices = [gz.subarray(0, third), gz.subarray(third, 2 * third), gz.subarray(2 * third)];

    const { uploadId } = await client.parts.start(ref);
    await client.parts.upload({ ...ref, uploadId, sequenceNumber: 3, data: slices[2]! });
    await client.parts.upload({ ...ref, uploadId, sequenceNumber: 1, data: Buffer.from('garbage') });
    await client.parts.upload({
      ...ref,
      uploadId,
      sequenceNumber: 2,
      data: [slices[1]!.subarray(0, 5), slices[1]!.subarray(5)],
    });
    await client.parts.upload({ ...ref, uploadId, sequenceNumber: 1, data: slices[0]! });
    const { warnings } = await client.parts.complete({ ...ref, uploadId, sequenceCount: 3 });
    expect(warnings).toEqual([]);
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(300);
  });

  it('names the missing chunk when complete comes too early', async () => {
    const client = emu.client();
    const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'prod' });
    const ref = { providerId: provider.id, dataSourceId: dataSource.id };
    const { uploadId } = await client.parts.start(ref);
    await client.parts.upload({ ...ref, uploadId, sequenceNumber: 1, data: Buffer.from('x') });
    const error = await client.parts
      .complete({ ...ref, uploadId, sequenceCount: 2 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(JSON.stringify((error as { violations: unknown }).violations)).toMatch(/2/);
  });

  it('retries a complete whose answer was lost and returns the result', async () => {
    const client = emu.client({
      fetch: losingFirstAnswer((r) => r.body?.includes('"operation":"complete"') === true),
    });
    const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'prod' });
    const ref = { providerId: provider.id, dataSourceId: dataSource.id };
    const { uploadId } = await client.parts.start(ref);
    await client.parts.upload({
      ...ref,
      uploadId,
      sequenceNumber: 1,
      data: gzipSync(JSON.stringify(appPayload(randomUsers(5)))),
    });
    expect(await client.parts.complete({ ...ref, uploadId, sequenceCount: 1 })).toEqual({ warnings: [] });
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(5);
  });
});
