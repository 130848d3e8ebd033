/**
 * The state of a config's connectors: per connector `state.json` (ids, digest, counts, the
 * connector's saved values), the snapshot of the last push (one hash per entity, for diffs; see
 * `entity-hash-writer.ts`), `last-run.json` (the last successful run's report) and a lock. The entries
 * live in a {@link StateBackend}: the state directory by default, Redis for a fleet of workers.
 * Nothing changes unless a run commits, and a commit is refused when another run committed since
 * this one read the state.
 */
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { DirectoryBackend } from './directory-backend.js';
import { OtherSnapshotFormat, readEntityHashes } from './entity-hash-reader.js';
import { ENTITY_HASHES_SUFFIX } from './entity-hash-writer.js';
import type { PreviousHashes } from './previous-hashes.js';
import type { AcquireLockOptions, HeldLock } from './lock.js';
import type { EntryWriter, StateBackend } from './state-backend.js';
import { STATE_FORMAT_VERSION, storedStateSchema } from './stored-state.js';
import type { StoredState } from './stored-state.js';

const STATE_FILE = 'state.json';
const REPORT_FILE = 'last-run.json';
/** Snapshots of entity hashes. */
const SNAPSHOT = /^snapshot-[0-9a-f]+\.hashes\.gz$/;

/** A snapshot being written; it becomes visible only through a `commit` naming it. */
export interface SnapshotWriter extends EntryWriter {
  /** Entry name to put in `StoredState.snapshot`. */
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

function corrupt(location: string, reason: string, cause?: unknown): OaaError {
  return new OaaError(`state file ${location} cannot be read: ${reason}`, {
    code: RUNNER_ERROR_CODES.STATE_CORRUPT,
    details: { path: location, reason },
    hints: [`delete ${location} (the next run then pushes everything and starts the diff history afresh)`],
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * A connector's state written by another version of oaakit, whose snapshot this one cannot read:
 * the user deletes the state (`location`) and runs again, which pushes everything afresh.
 */
function otherVersion(location: string, what: string): OaaError {
  const reason = `written by another version of oaakit (${what})`;
  return new OaaError(
    `the state in ${location} cannot be read: ${reason}. Delete ${location} and run again: the next run pushes everything and starts the diff history afresh`,
    {
      code: RUNNER_ERROR_CODES.STATE_CORRUPT,
      details: { path: location, reason },
      hints: [`delete ${location} and run again`],
    },
  );
}

function json(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The state of a config's connectors, in a directory (a path) or another backend.
 *
 * @example
 * const store = new StateStore(loaded.stateDir);
 * const last = await store.read('hr');
 */
export class StateStore {
  /** The backend the entries live in. */
  readonly backend: StateBackend;
  /** Version of each connector's entries as `read` saw them; a commit expects it unchanged. */
  private readonly seen = new Map<string, string>();
  /** Locks this store holds, so a commit can prove it still holds its lock where the backend fences. */
  private readonly held = new Map<string, HeldLock>();

  constructor(rootOrBackend: string | StateBackend) {
    this.backend = typeof rootOrBackend === 'string' ? new DirectoryBackend(rootOrBackend) : rootOrBackend;
  }

  /** The state directory (a directory backend's root; empty for other backends). */
  get root(): string {
    return this.backend instanceof DirectoryBackend ? this.backend.root : '';
  }

  /** Where a connector's state lives: its directory, or the backend's location of it. */
  dirOf(connectorId: string): string {
    return this.backend.locationOf(connectorId);
  }

  /** Connector ids that have state. */
  list(): Promise<string[]> {
    return this.backend.connectors();
  }

  /** The last committed state, or undefined before the first successful run. */
  async read(connectorId: string): Promise<StoredState | undefined> {
    const location = this.backend.locationOf(connectorId, STATE_FILE);
    const { data, version } = await this.backend.read(connectorId, STATE_FILE);
    this.seen.set(connectorId, version);
    if (data === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8'));
    } catch (cause) {
      throw corrupt(location, 'not JSON', cause);
    }
    const stored = (value as { version?: unknown } | null)?.version;
    if (typeof stored === 'number' && stored > STATE_FORMAT_VERSION) {
      throw corrupt(
        location,
        `written by a newer oaakit (format ${stored}; this one reads ${STATE_FORMAT_VERSION})`,
      );
    }
    const parsed = storedStateSchema.safeParse(value);
    if (!parsed.success)
      throw corrupt(location, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    return parsed.data;
  }

  /**
   * The entity hashes of the last push, from its snapshot. The state of another version of oaakit
   * (a snapshot of another format) is refused, naming what to delete.
   */
  async readSnapshot(connectorId: string, state: StoredState): Promise<PreviousHashes> {
    const location = this.backend.locationOf(connectorId, state.snapshot);
    if (!state.snapshot.endsWith(ENTITY_HASHES_SUFFIX))
      throw otherVersion(
        this.dirOf(connectorId),
        `its snapshot ${state.snapshot} is a payload, not entity hashes`,
      );
    try {
      const read = async (): Promise<Buffer> => {
        const { data } = await this.backend.read(connectorId, state.snapshot);
        if (data === undefined) throw new Error('the snapshot is missing');
        return data;
      };
      // The names of removed entities are read again from the backend, not kept meanwhile.
      return await readEntityHashes(await read(), read);
    } catch (cause) {
      if (cause instanceof OtherSnapshotFormat)
        throw otherVersion(
          this.dirOf(connectorId),
          `its snapshot ${state.snapshot} is of format ${cause.format}`,
        );
      throw corrupt(location, (cause as Error).message, cause);
    }
  }

  /** The report of the last successful run, or undefined. */
  async readReport(connectorId: string): Promise<unknown> {
    const { data } = await this.backend.read(connectorId, REPORT_FILE);
    return data === undefined ? undefined : (JSON.parse(data.toString('utf8')) as unknown);
  }

  /** Takes the data source's lock; see `acquireLock` (directory) for waiting and stale locks. */
  async lock(connectorId: string, options: Omit<AcquireLockOptions, 'subject'> = {}): Promise<HeldLock> {
    const lock = await this.backend.lock(connectorId, {
      ...options,
      subject: `the state of connector "${connectorId}"`,
    });
    this.held.set(connectorId, lock);
    return {
      location: lock.location,
      holder: lock.holder,
      release: async () => {
        if (this.held.get(connectorId) === lock) this.held.delete(connectorId);
        await lock.release();
      },
    };
  }

  /**
   * Starts writing a snapshot (entity hashes, see `EntityHashWriter`) named by `id` (hex). It is
   * invisible until `commit` names it.
   */
  async openSnapshot(connectorId: string, id: string): Promise<SnapshotWriter> {
    const name = `snapshot-${id.slice(0, 32)}${ENTITY_HASHES_SUFFIX}`;
    const writer = await this.backend.open(connectorId, name);
    return Object.assign(writer, { name });
  }

  /**
   * Makes a run's outcome the new state in one commit: the snapshot first, then `state.json`
   * (which names it), then the report, then the removal of snapshots no longer named. Refused
   * (`STATE_CONFLICT`) when another run committed since this store's `read`. Call it holding the lock.
   */
  async commit(connectorId: string, commit: StateCommit): Promise<void> {
    const keep = commit.state.snapshot;
    const stale = (await this.backend.names(connectorId)).filter((n) => SNAPSHOT.test(n) && n !== keep);
    const expectVersion = this.seen.get(connectorId);
    const lock = this.held.get(connectorId);
    const version = await this.backend.commit(connectorId, {
      put: [
        ...(commit.snapshot === undefined ? [] : [{ name: commit.snapshot.name, data: commit.snapshot }]),
        { name: STATE_FILE, data: json(commit.state) },
        ...(commit.report === undefined ? [] : [{ name: REPORT_FILE, data: json(commit.report) }]),
      ],
      remove: stale,
      ...(expectVersion === undefined ? {} : { expectVersion }),
      ...(lock === undefined ? {} : { lock }),
    });
    this.seen.set(connectorId, version);
    await this.backend.sweep(connectorId);
  }

  /** Removes debris of interrupted writes and snapshots other than `keep`. Call it holding the lock. */
  async sweep(connectorId: string, keep?: string): Promise<void> {
    await this.backend.sweep(connectorId);
    if (keep === undefined) return;
    const stale = (await this.backend.names(connectorId)).filter((n) => SNAPSHOT.test(n) && n !== keep);
    if (stale.length > 0) await this.backend.commit(connectorId, { put: [], remove: stale });
  }

  /** Forgets a connector's state (the next run pushes everything). Call it holding the lock. */
  async reset(connectorId: string): Promise<boolean> {
    this.seen.delete(connectorId);
    return this.backend.reset(connectorId);
  }
}
