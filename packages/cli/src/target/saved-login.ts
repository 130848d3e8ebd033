/**
 * The URL `oaa auth login` logged in to, remembered (never the key: that is in the OS keychain) so
 * later commands target it without `--url`.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const FILE = 'login.json';

/** The remembered URL, or undefined. */
export async function readSavedUrl(configDir: string): Promise<string | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(configDir, FILE), 'utf8')) as { url?: unknown };
    return typeof parsed.url === 'string' && parsed.url !== '' ? parsed.url : undefined;
  } catch {
    // A missing or damaged file means no login; `oaa auth login` writes a fresh one.
    return undefined;
  }
}

/** Remembers the URL of a login. */
export async function writeSavedUrl(configDir: string, url: string): Promise<void> {
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, FILE), `${JSON.stringify({ url }, null, 2)}\n`, { mode: 0o600 });
}

/** Forgets the remembered URL. */
export async function deleteSavedUrl(configDir: string): Promise<void> {
  await rm(join(configDir, FILE), { force: true });
}
