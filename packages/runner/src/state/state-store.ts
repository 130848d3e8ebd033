/**
 * The state directory: one subdirectory per connector entry, holding `state.json` (ids, digest,
 * counts, the connector's saved values), the snapshot of the last push (one hash per entity, for
 * diffs; see `entity-hashes.ts`),
 * `last-run.json` (the last successful run's report) and `lock`. Every write is atomic; nothing
 * changes unless a run commits.
 */
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { TEMP_MARKER, openAtomicFile, writeFileAtomic } from './atomic-write.js';
import { ENTITY_HASHES_SUFFIX, readEntityHashes } from './entity-hashes.js';
import type { PreviousHashes } from './entity-hashes.js';
import type { AtomicFileWriter } from './atomic-write.js';
import { acquireLock } from './lock.js';
import type { AcquireLockOptions, HeldLock } from './lock.js';
import { STATE_FORMAT_VERSION, storedStateSchema } from './stored-state.js';
import type { StoredState } from './stored-state.js';

const STATE_FILE = 'state.json';
const REPORT_FILE = 'last-run.json';
const LOCK_FILE = 'lock';
/** Snapshots: entity hashes, or (written by earlier versions) the gzip payload. */
const SNAPSHOT = /^snapshot-[0-9a-f]+\.(?:hashes|json)\.gz$/;

/** A snapshot being written; it becomes visible only through a `commit` naming it. */
export interface SnapshotWriter extends AtomicFileWriter {
  /** File name to put in `StoredState.snapshot`. */
  readonly name: string;
}

/** What {@link StateStore.commit} writes. */
export interface StateCommit {
  state: StoredState;
  /** The run's report, written as `last-run.json`. */
  report?: unknown;
  /** A finished snapshot writer to move into place first (omit when the snapshot is unchanged). */
  snapshot?: SnapshotWriter;
}

function corrupt(path: string, reason: string, cause?: unknown): OaaError {
  return new OaaError(`state file ${path} cannot be read: ${reason}`, {
    code: RUNNER_ERROR_CODES.STATE_CORRUPT,
    details: { path, reason },
    hints: [`delete ${path} (the next run then pushes everything and starts the diff history afresh)`],
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The state directory of a config.
 *
 * @example
 * const store = new StateStore(loaded.stateDir);
 * const last = await store.read('hr');
 */
export class StateStore {
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

  /** Connector ids that have state. */
  async list(): Promise<string[]> {
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

  /** The last committed state, or undefined before the first successful run. */
  async read(connectorId: string): Promise<StoredState | undefined> {
    const path = join(this.dirOf(connectorId), STATE_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw corrupt(path, 'not JSON', cause);
    }
    const version = (value as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > STATE_FORMAT_VERSION) {
      throw corrupt(
        path,
        `written by a newer oaakit (format ${version}; this one reads ${STATE_FORMAT_VERSION})`,
      );
    }
    const parsed = storedStateSchema.safeParse(value);
    if (!parsed.success)
      throw corrupt(path, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    return parsed.data;
  }

  /**
   * The entity hashes of the last push, from its snapshot; a snapshot of an earlier version (the
   * gzip payload) is hashed as it is read.
   */
  async readSnapshot(connectorId: string, state: StoredState): Promise<PreviousHashes> {
    const path = join(this.dirOf(connectorId), state.snapshot);
    try {
      return await readEntityHashes(path, state.template);
    } catch (cause) {
      throw corrupt(path, (cause as Error).message, cause);
    }
  }

  /** The report of the last successful run, or undefined. */
  async readReport(connectorId: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(join(this.dirOf(connectorId), REPORT_FILE), 'utf8')) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Takes the data source's lock; see `acquireLock` for waiting and stale locks. */
  async lock(connectorId: string, options: Omit<AcquireLockOptions, 'subject'> = {}): Promise<HeldLock> {
    const dir = this.dirOf(connectorId);
    await mkdir(dir, { recursive: true });
    return acquireLock(join(dir, LOCK_FILE), {
      ...options,
      subject: `the state of connector "${connectorId}"`,
    });
  }

  /**
   * Starts writing a snapshot (entity hashes, see `EntityHashWriter`) named by `id` (hex). It is
   * written to a temporary file beside its name until `commit` moves it into place.
   */
  async openSnapshot(connectorId: string, id: string): Promise<SnapshotWriter> {
    const dir = this.dirOf(connectorId);
    await mkdir(dir, { recursive: true });
    const name = `snapshot-${id.slice(0, 32)}${ENTITY_HASHES_SUFFIX}`;
    const writer = await openAtomicFile(join(dir, name));
    return Object.assign(writer, { name });
  }

  /**
   * Makes a run's outcome the new state: the snapshot first, then `state.json` (which names it),
   * then the report; then removes snapshots no longer named and debris of interrupted writes.
   * Call it holding the lock.
   */
  async commit(connectorId: string, commit: StateCommit): Promise<void> {
    const dir = this.dirOf(connectorId);
    await mkdir(dir, { recursive: true });
    if (commit.snapshot !== undefined) await commit.snapshot.commit();
    await writeFileAtomic(join(dir, STATE_FILE), `${JSON.stringify(commit.state, null, 2)}\n`);
    if (commit.report !== undefined)
      await writeFileAtomic(join(dir, REPORT_FILE), `${JSON.stringify(commit.report, null, 2)}\n`);
    await this.sweep(connectorId, commit.state.snapshot);
  }

  /** Removes snapshots other than `keep` and temporary files of interrupted writes. Call it holding the lock. */
  async sweep(connectorId: string, keep?: string): Promise<void> {
    const dir = this.dirOf(connectorId);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const debris = names.filter(
      (n) =>
        (n.includes(TEMP_MARKER) && !n.startsWith(`${LOCK_FILE}.`)) ||
        (SNAPSHOT.test(n) && keep !== undefined && n !== keep),
    );
    await Promise.all(debris.map((n) => rm(join(dir, n), { force: true })));
  }

  /** Forgets a connector's state (the next run pushes everything). Call it holding the lock. */
  async reset(connectorId: string): Promise<boolean> {
    const dir = this.dirOf(connectorId);
    const names = await readdir(dir).catch(() => [] as string[]);
    const removable = names.filter((n) => n !== LOCK_FILE && !n.startsWith(`${LOCK_FILE}.`));
    await Promise.all(removable.map((n) => rm(join(dir, n), { force: true })));
    return removable.includes(STATE_FILE);
  }
}
