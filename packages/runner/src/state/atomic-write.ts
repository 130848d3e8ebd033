/**
 * Atomic file replacement: write a temporary file beside the target, fsync it, rename it over the
 * target, fsync the directory. A reader sees the old file or the new one, never a torn one, even
 * when the process dies midway.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Suffix of temporary files; anything with it is debris of an interrupted write. */
export const TEMP_MARKER = '.tmp-';

/** A fresh temporary path beside `target`. */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `${basename(target)}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`,
  );
}

/** fsyncs a directory so a rename in it survives a crash (a no-op where directories cannot be opened). */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/** Replaces `target` with `data` atomically. */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const temp = tempPathFor(target);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(dirname(target));
}

/** A file being written in pieces that appears at its target only on `commit`. */
export interface AtomicFileWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** fsyncs and renames the file to its target. */
  commit(): Promise<void>;
  /** Drops the temporary file; safe to call after `commit` or twice. */
  discard(): Promise<void>;
}

/** Starts writing `target` through a temporary file. */
export async function openAtomicFile(target: string): Promise<AtomicFileWriter> {
  const temp = tempPathFor(target);
  const handle = await open(temp, 'wx', 0o600);
  let closed = false;
  let done = false;
  const close = async (): Promise<void> => {
    if (!closed) {
      closed = true;
      await handle.close();
    }
  };
  return {
    async write(chunk) {
      for (let offset = 0; offset < chunk.byteLength;) {
        const { bytesWritten } = await handle.write(chunk, offset);
        offset += bytesWritten;
      }
    },
    async commit() {
      await handle.sync();
      await close();
      await rename(temp, target);
      done = true;
      await syncDir(dirname(target));
    },
    async discard() {
      await close();
      if (!done) await rm(temp, { force: true });
      done = true;
    },
  };
}
