/**
 * The cursor of `oaa events tail`, kept in the state directory per service URL
 * (`events-tail/<hash of the URL>.json`), written atomically after each event shown, so a restart
 * resumes right after the last event printed.
 */
import { hash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@oaakit/runner';

/** Where the cursor of `url` lives. */
export function cursorPath(stateDir: string, url: string): string {
  const key = hash('sha256', url, 'hex').slice(0, 16);
  return join(stateDir, 'events-tail', `${key}.json`);
}

/** The saved cursor, or undefined when none (or unreadable: the tail starts over). */
export async function readCursor(path: string): Promise<string | undefined> {
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as { cursor?: unknown };
    return typeof saved.cursor === 'string' ? saved.cursor : undefined;
  } catch {
    return undefined;
  }
}

/** Saves the cursor (the service URL beside it, for a reader of the directory). */
export async function saveCursor(path: string, url: string, cursor: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify({ url, cursor })}\n`);
}
