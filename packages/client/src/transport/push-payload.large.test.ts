/**
 * Opt-in (OAA_LARGE_TESTS=1): a payload over 100 MB after compression, produced from an async
 * iterable, goes through multipart at the real body limit and the emulator holds every entity.
 * Takes minutes and over a gigabyte of memory, so it stays out of the default suite.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startClientTestEmulator } from '../private-test-helpers/emulator.js';
import type { ClientTestEmulator } from '../private-test-helpers/emulator.js';
import { SEND_BODY_LIMIT_BYTES } from '@oaakit/core';

const RESOURCES = 340_000;
const MIB = 1024 * 1024;

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

/** Resources whose names and descriptions are random text, so gzip cannot shrink them much. */
async function* randomResources(n: number): AsyncGenerator<Record<string, unknown>> {
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 0) await Promise.resolve();
    const noise = randomBytes(330).toString('base64url');
    yield {
      name: `r${i}-${noise.slice(0, 190)}`,
      resource_type: 'Space',
      description: noise.slice(190, 440),
    };
  }
}

describe.skipIf(process.env['OAA_LARGE_TESTS'] !== '1')('pushPayload at the service ceiling', () => {
  it('pushes over 100 MB of gzip through multipart and every resource arrives', async () => {
    const client = emu.client({ timeoutMs: 600_000 });
    const { provider } = await client.providers.findOrCreate({ name: 'Big', template: 'application' });
    const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'all' });
    const ref = { providerId: provider.id, dataSourceId: dataSource.id };
    const payload = {
      applications: [
        {
          name: 'big',
          application_type: 'Big',
          local_groups: [{ name: 'staff' }],
          local_users: [{ name: 'ann', groups: ['staff'] }],
          resources: randomResources(RESOURCES),
        },
      ],
      permissions: [{ name: 'View', permission_type: ['DataRead'] }],
      identity_to_permissions: [
        {
          identity: 'staff',
          identity_type: 'local_group',
          application_permissions: [{ application: 'big', permission: 'View', apply_to_application: true }],
        },
      ],
    };
    const result = await client.pushPayload({ ...ref, payload });
    expect(result.mode).toBe('multipart');
    expect(result.compressedBytes).toBeGreaterThan(100 * MIB);
    expect(result.compressedBytes).toBeGreaterThan(SEND_BODY_LIMIT_BYTES);
    expect(result.chunks).toBeGreaterThanOrEqual(2);
    expect(await emu.nodes(ref, 'OAA.Big.Space.Resource')).toBe(RESOURCES);
  }, 900_000);
});
