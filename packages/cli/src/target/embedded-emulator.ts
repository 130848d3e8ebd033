/**
 * The embedded emulator: the target when none is configured. Its database and its local API key live
 * in the CLI's state directory, so a later command sees what an earlier one pushed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmulator } from '@oaakit/emulator';

/** File of the embedded emulator's database, inside the state directory. */
export const EMULATOR_DB_FILE = 'emulator.db';
/** File of the local admin key the CLI uses with the embedded emulator. */
export const EMULATOR_KEY_FILE = 'emulator-key';

/** A started embedded emulator. */
export interface EmbeddedEmulator {
  url: string;
  apiKey: string;
  dbPath: string;
  close(): Promise<void>;
}

/** The local key of this state directory, created on first use (readable by the owner only). */
async function localKey(stateDir: string): Promise<string> {
  const path = join(stateDir, EMULATOR_KEY_FILE);
  try {
    const key = (await readFile(path, 'utf8')).trim();
    if (key !== '') return key;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const key = `oaa_local_${randomBytes(24).toString('base64url')}`;
  await writeFile(path, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * Starts the emulator in this process on a free port of 127.0.0.1, with its database in `stateDir`.
 *
 * @example
 * const emu = await startEmbeddedEmulator('.oaa');
 * try { ... createClient({ url: emu.url, apiKey: emu.apiKey }) ... } finally { await emu.close(); }
 */
export async function startEmbeddedEmulator(stateDir: string): Promise<EmbeddedEmulator> {
  await mkdir(stateDir, { recursive: true });
  const apiKey = await localKey(stateDir);
  const dbPath = join(stateDir, EMULATOR_DB_FILE);
  const emulator = await startEmulator({
    port: 0,
    dbPath,
    apiKeys: [{ key: apiKey, role: 'admin', name: 'oaa embedded' }],
  });
  return { url: emulator.url, apiKey, dbPath, close: () => emulator.close() };
}
