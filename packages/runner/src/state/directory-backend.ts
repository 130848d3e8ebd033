/**
 * The default state backend: one directory per connector entry under the state directory, one file
 * per entry, each write atomic (temporary file, fsync, rename), one lock file per data source (see
 * `lock.ts`). The version of a connector's entries is the SHA-256 of its `state.json`, which every
 * commit rewrites, so the on-disk format has no extra file.
 */
import { hash } from 'node:crypto';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { TEMP_MARKER, openAtomicFile, writeFileAtomic } from './atomic-write.js';
import type { AtomicFileWriter } from './atomic-write.js';
import { acquireLock } from './lock.js';
import type { HeldLock } from './lock.js';
import { stateConflict } from './state-conflict.js';
import type {
  BackendLockOptions,
  EntryCommit,
  EntryWriter,
  StateBackend,
  VersionedEntry,
} from './state-backend.js';

const LOCK_FILE = 'lock';
/** The entry whose bytes are the version (every commit writes it). */
const VERSION_ENTRY = 'state.json';
const NO_VERSION = 'none';

function versionOf(data: Buffer | undefined): string {
  return data === undefined ? NO_VERSION : hash('sha256', data, 'hex');
}

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A writer of this backend: an atomic file with its target. */
interface FileEntryWriter extends EntryWriter {
  readonly file: AtomicFileWriter;
}

function isFileWriter(data: Uint8Array | EntryWriter): data is FileEntryWriter {
  return !(data instanceof Uint8Array) && 'file' in data;
}

/** State entries as files in a directory per connector. */
export class DirectoryBackend implements StateBackend {
  constructor(readonly root: string) {}

  /** The directory of one connector entry. */
  dirOf(connectorId: string): string {
    if (!/^[A-Za-z0-9][\w.-]*$/.test(connectorId) || connectorId.includes('..')) {
      throw new OaaError(`connector id ${JSON.stringify(connectorId)} cannot name a state directory`, {
        code: RUNNER_ERROR_CODES.CONFIG_INVALID,
      });
    }
    return join(this.root, connectorId);
  }

  locationOf(connectorId: string, name?: string): string {
    return name === undefined ? this.dirOf(connectorId) : join(this.dirOf(connectorId), name);
  }

  async connectors(): Promise<string[]> {
    try {
      const entries = await readdir(this.root, { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async names(connectorId: string): Promise<string[]> {
    try {
      return await readdir(this.dirOf(connectorId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async read(connectorId: string, name: string): Promise<VersionedEntry> {
    const dir = this.dirOf(connectorId);
    const data = await readOptional(join(dir, name));
    const version = name === VERSION_ENTRY ? data : await readOptional(join(dir, VERSION_ENTRY));
    return { data, version: versionOf(version) };
  }

  async open(connectorId: string, name: string): Promise<EntryWriter> {
    const dir = this.dirOf(connectorId);
    await mkdir(dir, { recursive: true });
    const file = await openAtomicFile(join(dir, name));
    const writer: FileEntryWriter = { file, write: (c) => file.write(c), discard: () => file.discard() };
    return writer;
  }

  async commit(connectorId: string, commit: EntryCommit): Promise<string> {
    const dir = this.dirOf(connectorId);
    await mkdir(dir, { recursive: true });
    if (commit.expectVersion !== undefined) {
      const current = versionOf(await readOptional(join(dir, VERSION_ENTRY)));
      if (current !== commit.expectVersion) throw stateConflict(connectorId, join(dir, VERSION_ENTRY));
    }
    for (const { name, data } of commit.put) {
      if (isFileWriter(data)) await data.file.commit();
      else if (data instanceof Uint8Array) await writeFileAtomic(join(dir, name), data);
      else throw new TypeError(`entry ${name}: a writer of another backend`);
    }
    await Promise.all((commit.remove ?? []).map((n) => rm(join(dir, n), { force: true })));
    return versionOf(await readOptional(join(dir, VERSION_ENTRY)));
  }

  async lock(connectorId: string, options: BackendLockOptions): Promise<HeldLock> {
    const dir = this.dirOf(connectorId);
    await mkdir(dir, { recursive: true });
    return acquireLock(join(dir, LOCK_FILE), options);
  }

  async sweep(connectorId: string): Promise<void> {
    const names = await this.names(connectorId);
    const debris = names.filter((n) => n.includes(TEMP_MARKER) && !n.startsWith(`${LOCK_FILE}.`));
    const dir = this.dirOf(connectorId);
    await Promise.all(debris.map((n) => rm(join(dir, n), { force: true })));
  }

  async reset(connectorId: string): Promise<boolean> {
    const dir = this.dirOf(connectorId);
    const names = await this.names(connectorId);
    const removable = names.filter((n) => n !== LOCK_FILE && !n.startsWith(`${LOCK_FILE}.`));
    await Promise.all(removable.map((n) => rm(join(dir, n), { force: true })));
    return removable.includes(VERSION_ENTRY);
  }
}
