/**
 * Where a state store keeps its entries: named blobs per connector (`state.json`, the snapshot,
 * `last-run.json`, ...), committed together, and the lock of each data source. The directory is the
 * default backend; `@oaakit/fleet` has one on Redis for workers on many hosts. The store above it
 * decides what the entries hold; a backend only keeps bytes, versions and locks.
 */
import type { HeldLock } from './lock.js';

/** An entry being written in pieces; it becomes visible only through a commit naming it. */
export interface EntryWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Drops what was written; safe after a commit or twice. */
  discard(): Promise<void>;
}

/** An entry's bytes with the version of the connector's entries they were read at. */
export interface VersionedEntry {
  /** Undefined when the entry does not exist. */
  data: Buffer | undefined;
  /** Opaque; changes with every commit of the connector's entries. */
  version: string;
}

/** Options of {@link StateBackend.lock}. */
export interface BackendLockOptions {
  /** How long to wait for a held lock before refusing with `STATE_LOCKED`; default 0. */
  waitMs?: number;
  /** Recorded with the lock and named in refusals. */
  owner?: string;
  /** What the lock protects, for messages. */
  subject: string;
  signal?: AbortSignal;
}

/** What {@link StateBackend.commit} writes, all or nothing where the backend can, in this order. */
export interface EntryCommit {
  /** Entries written, in this order: bytes, or a writer from {@link StateBackend.open} of this backend. */
  put: ReadonlyArray<{ name: string; data: Uint8Array | EntryWriter }>;
  /** Entries removed after the puts. */
  remove?: readonly string[];
  /**
   * The version the committer read; the commit fails with `STATE_CONFLICT` when the entries were
   * committed since (a late run must not overwrite newer state). Undefined: no check.
   */
  expectVersion?: string;
  /** The lock the committer holds; a backend that can fence refuses the commit when it was lost. */
  lock?: HeldLock;
}

/** Storage of the state entries and locks of a config's connectors. */
export interface StateBackend {
  /** Where a connector's entries (or one entry) live, for messages: a path or a Redis key. */
  locationOf(connectorId: string, name?: string): string;
  /** Connector ids that have entries. */
  connectors(): Promise<string[]>;
  /** Names of a connector's entries. */
  names(connectorId: string): Promise<string[]>;
  /** One entry with the version of the connector's entries. */
  read(connectorId: string, name: string): Promise<VersionedEntry>;
  /** Starts writing an entry that appears only when a commit names it. */
  open(connectorId: string, name: string): Promise<EntryWriter>;
  /** Writes and removes entries; returns the new version. */
  commit(connectorId: string, commit: EntryCommit): Promise<string>;
  /** Takes the connector's lock, renewing its lease until released. */
  lock(connectorId: string, options: BackendLockOptions): Promise<HeldLock>;
  /** Removes debris of interrupted writes (temporary files). Call it holding the lock. */
  sweep(connectorId: string): Promise<void>;
  /** Removes every entry of a connector (not its lock); whether there were any. Call it holding the lock. */
  reset(connectorId: string): Promise<boolean>;
}
