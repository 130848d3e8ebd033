/**
 * The limits a plugin declares for the acceptance kit, in its package.json:
 * `"oaakit": { "acceptance": { "peakRssMb": 256 } }`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { AcceptanceOptions } from './types.js';

/** The settings `oaakit.acceptance` may hold. */
const SETTINGS = ['peakRssMb'] as const;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function invalid(file: string, message: string, hint: string): OaaError {
  return new OaaError(`${file}: ${message}`, {
    code: RUNNER_ERROR_CODES.PLUGIN_INVALID,
    details: { file },
    hints: [hint],
  });
}

/**
 * The `bounds` of the acceptance kit that the plugin in `pluginDir` declares (none when its
 * package.json has no `oaakit.acceptance`). Throws `PLUGIN_INVALID` naming the file and the field
 * for a package.json that cannot be read, a setting that is not one, or a `peakRssMb` that is not
 * a positive number.
 *
 * @example
 * const bounds = await readAcceptanceBounds(plugin.dir); // { peakRssMb: 256 }
 * const report = await runAcceptanceChecks(plugin.connector, { ...options, bounds });
 */
export async function readAcceptanceBounds(
  pluginDir: string,
): Promise<NonNullable<AcceptanceOptions['bounds']>> {
  const file = join(pluginDir, 'package.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw invalid(
      file,
      `cannot read it: ${(cause as Error).message}`,
      'a plugin is a package with a package.json',
    );
  }
  const oaakit = isObject(manifest) ? manifest['oaakit'] : undefined;
  const acceptance = isObject(oaakit) ? oaakit['acceptance'] : undefined;
  if (acceptance === undefined) return {};
  const example = '"oaakit": { "acceptance": { "peakRssMb": 256 } }';
  if (!isObject(acceptance))
    throw invalid(
      file,
      `oaakit.acceptance must be an object, not ${JSON.stringify(acceptance)}`,
      `e.g. ${example}`,
    );
  for (const key of Object.keys(acceptance))
    if (!(SETTINGS as readonly string[]).includes(key))
      throw invalid(
        file,
        `oaakit.acceptance.${key} is not a setting of the acceptance kit`,
        `the settings are ${SETTINGS.join(', ')}, e.g. ${example}`,
      );
  const peak = acceptance['peakRssMb'];
  if (peak === undefined) return {};
  if (typeof peak !== 'number' || !Number.isFinite(peak) || peak <= 0)
    throw invalid(
      file,
      `oaakit.acceptance.peakRssMb must be a positive number (megabytes), not ${JSON.stringify(peak)}`,
      `the most the process's memory (RSS) may grow during one extract and read of the payload, e.g. ${example}`,
    );
  return { peakRssMb: peak };
}
