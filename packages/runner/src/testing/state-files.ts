/** What a state directory holds, for tests that check a failed or aborted run left it as it was. */
import { hash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * File name -> SHA-256 of every file in a connector's state directory, the lock file left out
 * (it comes and goes with each run); empty when the directory does not exist.
 *
 * @example
 * const before = await stateFiles(new StateStore(stateDir).dirOf('app'));
 */
export async function stateFiles(dir: string): Promise<Record<string, string>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: Record<string, string> = {};
  for (const name of names.filter((n) => n !== 'lock').sort()) {
    out[name] = hash('sha256', await readFile(join(dir, name)), 'hex');
  }
  return out;
}
