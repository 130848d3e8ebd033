/**
 * One lock per data source: a lock file naming its holder (pid, host, since when, and on Linux the
 * boot id, pid namespace and start time that make the pid unambiguous), with a random token and a
 * lease the holder refreshes while it runs. `lock-record.ts` has the rule for when a lock is stale;
 * `lock-file.ts` the file operations that keep two contenders from both taking one over.
 *
 * Why not proper-lockfile (the usual lock-file package): its lock is a directory with nothing in it, so
 * a refusal could not name the holder; it judges staleness by mtime alone, so a local holder whose
 * event loop is blocked for longer than the lease (a long synchronous validation, SQLite waiting on a
 * busy database) loses its lock, and a dead local holder is noticed only after the lease; and two
 * processes removing one stale lock at once can delete each other's fresh lock. Here a local holder
 * is checked through the kernel, and the mtime lease is for the holders that cannot be checked.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OaaError } from '@oaakit/core';
import { createExclusive, inspect, removeLockFile, sweepLockDebris } from './lock-file.js';
import type { CreatedFile, LockFileSnapshot } from './lock-file.js';
import { isStale } from './lock-record.js';
import type { LockHolder } from './lock-record.js';
import { currentIdentity, processStatus } from './process-identity.js';
import { stateLocked } from './state-locked.js';

export type { LockHolder } from './lock-record.js';

/** Lease of a lock: refreshed every third of it, stale (where the holder cannot be checked) after it. */
export const DEFAULT_LEASE_MS = 30_000;
/** Age after which an empty or unparsable lock file is taken over. */
export const DEFAULT_GRACE_MS = 5_000;

/** A held lock. */
export interface HeldLock {
  /** Where the lock lives, for messages: the lock file's path, or a Redis key (the fleet's backend). */
  readonly location: string;
  readonly holder: LockHolder;
  /** Stops the heartbeat and releases the lock; safe to call twice. */
  release(): Promise<void>;
}

/** Options of {@link acquireLock}. */
export interface AcquireLockOptions {
  /** How long to wait for a held lock before refusing; default 0 (refuse at once). */
  waitMs?: number;
  /** Delay between attempts while waiting; default 200 ms. */
  pollMs?: number;
  /** Recorded in the lock file and named in refusals. */
  owner?: string;
  /** What the lock protects, for messages; default the lock path. */
  subject?: string;
  /** This holder's lease, recorded in the lock file; default {@link DEFAULT_LEASE_MS}. */
  leaseMs?: number;
  /** Age after which an unparsable lock file is taken over; default {@link DEFAULT_GRACE_MS}. */
  graceMs?: number;
  signal?: AbortSignal;
}

/** Release gives way this often to a process removing the lock at that moment. */
const RELEASE_ATTEMPTS = 20;

function lockedError(subject: string, path: string, holder: LockHolder | undefined): OaaError {
  return stateLocked(subject, holder, {
    details: { lockFile: path },
    unknownHolder: 'another run (its lock file is being written, or is unreadable)',
    hints: [
      'wait for the other run to finish, or let this run wait for it',
      `if no such run exists (e.g. it ran on another machine that crashed), the lock is taken over once its lease runs out, or delete ${path}`,
    ],
  });
}

/** Refreshes the lock file's mtime (the lease) until stopped; the timer never keeps the process alive. */
function heartbeat(handle: FileHandle, leaseMs: number): () => void {
  const timer = setInterval(
    () => {
      const now = new Date();
      handle.utimes(now, now).catch(() => undefined);
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Takes the lock file at `path`, waiting up to `waitMs` while another live run holds it, and keeps
 * its lease until released. A stale lock (see `lock-record.ts`) is taken over. Throws `STATE_LOCKED`
 * naming the holder when it stays held.
 */
export async function acquireLock(path: string, options: AcquireLockOptions = {}): Promise<HeldLock> {
  const self = currentIdentity();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const holder: LockHolder = {
    ...self,
    since: new Date().toISOString(),
    ...(options.owner ? { owner: options.owner } : {}),
    token: randomBytes(8).toString('hex'),
    leaseMs,
  };
  const text = JSON.stringify(holder);
  const stale = (file: LockFileSnapshot): boolean =>
    isStale({
      holder: file.holder,
      ageMs: Date.now() - file.mtimeMs,
      self,
      status: processStatus,
      defaultLeaseMs: leaseMs,
      graceMs,
    });
  const remove = { claim: text, abandoned: stale };
  const deadline = Date.now() + (options.waitMs ?? 0);
  let created: CreatedFile | undefined;
  while (created === undefined) {
    options.signal?.throwIfAborted();
    created = await createExclusive(path, text);
    if (created !== undefined) break;
    const current = await inspect(path);
    if (current === undefined) continue;
    if (stale(current) && (await removeLockFile(path, current, { ...remove, removable: stale }))) continue;
    if (Date.now() >= deadline) throw lockedError(options.subject ?? path, path, current.holder);
    await sleep(
      Math.min(options.pollMs ?? 200, Math.max(1, deadline - Date.now())),
      undefined,
      options.signal ? { signal: options.signal } : {},
    );
  }
  const { handle, ino } = created;
  const mine: LockFileSnapshot = { text, holder, ino, mtimeMs: 0 };
  const stop = heartbeat(handle, leaseMs);
  // Debris of crashes is nobody's to wait for; failing to delete it does not fail the run.
  await sweepLockDebris(path, Math.max(2 * leaseMs, 60_000)).catch(() => undefined);
  let released: Promise<void> | undefined;
  return {
    location: path,
    holder,
    release: () =>
      (released ??= (async () => {
        stop();
        await handle.close();
        const whole = { ...remove, removable: () => true };
        for (let i = 0; i < RELEASE_ATTEMPTS && !(await removeLockFile(path, mine, whole)); i++)
          await sleep(50);
      })()),
  };
}
