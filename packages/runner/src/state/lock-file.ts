/**
 * The file operations of a lock, each safe against other processes doing the same at once.
 *
 * A lock file appears whole or not at all: it is written and fsynced under a temporary name, then
 * hard-linked to its path, which fails when the path exists (the O_EXCL of link(2), atomic on local
 * and network file systems alike).
 *
 * Deleting a stale lock is the racy step: two processes that both judged the same file stale must
 * not both delete, or the second deletes the lock the first has just taken. So every deletion of a
 * lock file, release included, first claims a break file named after that very file (its inode and
 * contents), by the same exclusive link; whoever claims it checks the file is still the one judged
 * and deletes it; the others wait. Break files are named `<lock>.break-<key>.<n>`: a claim whose
 * claimant died (judged like a lock) is passed over by claiming generation n + 1, never deleted,
 * so no two processes ever both believe they hold one generation.
 */
import { hash } from 'node:crypto';
import { link, open, readdir, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TEMP_MARKER, tempPathFor } from './atomic-write.js';
import { parseLockRecord } from './lock-record.js';
import type { LockHolder } from './lock-record.js';

/** Claims of one lock file beyond which a remover gives up (each one stale means a crash mid-break). */
const MAX_BREAK_GENERATIONS = 16;

/** A lock file as read at one moment. */
export interface LockFileSnapshot {
  text: string;
  /** Undefined when the text is not a lock record. */
  holder: LockHolder | undefined;
  /** Inode number: a file recreated with the same text is another file. */
  ino: string;
  /** Last write or heartbeat. */
  mtimeMs: number;
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** A file made by {@link createExclusive}, still open. */
export interface CreatedFile {
  handle: FileHandle;
  ino: string;
}

/**
 * Creates `path` holding `text`, whole, unless it exists. Returns the open file (for heartbeats) or
 * undefined when the path was taken.
 */
export async function createExclusive(path: string, text: string): Promise<CreatedFile | undefined> {
  const temp = tempPathFor(path);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
    const { ino } = await handle.stat({ bigint: true });
    await link(temp, path);
    return { handle, ino: String(ino) };
  } catch (error) {
    await handle.close();
    if (code(error) === 'EEXIST') return undefined;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/** The file at `path` now, or undefined when there is none. Text and inode come from one open file. */
export async function inspect(path: string): Promise<LockFileSnapshot | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    const text = await handle.readFile('utf8');
    return { text, holder: parseLockRecord(text), ino: String(stats.ino), mtimeMs: Number(stats.mtimeMs) };
  } finally {
    await handle.close();
  }
}

/** Options of {@link removeLockFile}. */
export interface RemoveOptions {
  /** What the break file records about the remover: its own lock record. */
  claim: string;
  /** Asked again of the file as it is once claimed; false leaves it. */
  removable: (current: LockFileSnapshot) => boolean;
  /** Whether another remover's claim is abandoned (its process gone), judged like a lock. */
  abandoned: (claim: LockFileSnapshot) => boolean;
}

/**
 * Deletes the lock file `seen` if it is still at `path` and still `removable`. Returns false when
 * another process is removing it right now (the caller waits and looks again), true otherwise.
 */
export async function removeLockFile(
  path: string,
  seen: LockFileSnapshot,
  options: RemoveOptions,
): Promise<boolean> {
  const key = hash('sha256', `${seen.ino}\0${seen.text}`, 'hex').slice(0, 16);
  let claimed: string | undefined;
  for (let n = 0; n < MAX_BREAK_GENERATIONS && claimed === undefined; n++) {
    const candidate = `${path}.break-${key}.${n}`;
    const created = await createExclusive(candidate, options.claim);
    if (created !== undefined) {
      await created.handle.close();
      claimed = candidate;
      break;
    }
    const other = await inspect(candidate);
    // Gone: its remover has finished, so the lock file has changed; the caller looks again.
    if (other === undefined) return true;
    if (!options.abandoned(other)) return false;
  }
  if (claimed === undefined) return false;
  try {
    const current = await inspect(path);
    if (current?.ino === seen.ino && current.text === seen.text && options.removable(current))
      await rm(path, { force: true });
  } finally {
    // Anyone claiming this key from now on finds the file changed and leaves it.
    await rm(claimed, { force: true });
  }
  return true;
}

/**
 * Deletes what crashes left beside the lock at `path`: temporary files and break claims older than
 * `olderThanMs` (a live operation holds them for milliseconds).
 */
export async function sweepLockDebris(path: string, olderThanMs: number): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const candidates = names.filter(
    (n) => n.startsWith(prefix) && (n.includes(TEMP_MARKER) || n.startsWith(`${prefix}break-`)),
  );
  const now = Date.now();
  await Promise.all(
    candidates.map(async (name) => {
      const file = join(dir, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats !== undefined && now - stats.mtimeMs > olderThanMs) await rm(file, { force: true });
    }),
  );
}
