import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAcceptanceBounds } from './plugin-bounds.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-bounds-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function manifest(oaakit: Record<string, unknown>): Promise<void> {
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'p', oaakit: { connector: './index.js', apiVersion: 1, ...oaakit } }),
  );
}

describe("the acceptance bounds of a plugin's package.json", () => {
  it('reads peakRssMb, and none when the plugin declares no bound', async () => {
    await manifest({ acceptance: { peakRssMb: 96.5 } });
    expect(await readAcceptanceBounds(dir)).toEqual({ peakRssMb: 96.5 });
    await manifest({});
    expect(await readAcceptanceBounds(dir)).toEqual({});
    await manifest({ acceptance: {} });
    expect(await readAcceptanceBounds(dir)).toEqual({});
  });

  it.each([
    [
      'a string',
      { peakRssMb: '256' },
      'oaakit.acceptance.peakRssMb must be a positive number (megabytes), not "256"',
    ],
    ['zero', { peakRssMb: 0 }, 'oaakit.acceptance.peakRssMb must be a positive number (megabytes), not 0'],
    [
      'a negative number',
      { peakRssMb: -64 },
      'oaakit.acceptance.peakRssMb must be a positive number (megabytes), not -64',
    ],
    [
      'an unknown setting',
      { peakRssMB: 64 },
      'oaakit.acceptance.peakRssMB is not a setting of the acceptance kit',
    ],
  ])('refuses %s, naming the file and the field', async (_what, acceptance, message) => {
    await manifest({ acceptance });
    await expect(readAcceptanceBounds(dir)).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: `${join(dir, 'package.json')}: ${message}`,
    });
  });

  it('refuses an acceptance entry that is not an object, and a package.json it cannot read', async () => {
    await manifest({ acceptance: 64 });
    await expect(readAcceptanceBounds(dir)).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: `${join(dir, 'package.json')}: oaakit.acceptance must be an object, not 64`,
      hints: ['e.g. "oaakit": { "acceptance": { "peakRssMb": 256 } }'],
    });
    await writeFile(join(dir, 'package.json'), '{ "name": ');
    await expect(readAcceptanceBounds(dir)).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: expect.stringContaining(`${join(dir, 'package.json')}: cannot read it:`),
    });
  });
});
