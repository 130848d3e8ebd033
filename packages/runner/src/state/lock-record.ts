/**
 * What a lock file says about its holder, and the rule that decides when a lock is stale.
 *
 * The holder's own host can check it exactly: on the same machine (host name), the same boot and the
 * same pid namespace, a lock is stale when its pid is gone or now belongs to a process that started
 * at another time (pid reuse, a restarted container's pid 1). A live holder keeps its lock there
 * even when its heartbeat is late: a long synchronous step (a big validation, SQLite waiting on a
 * busy database) blocks the timer, not the run. A lock taken under another boot of this host is
 * stale at once. Where the holder cannot be checked (another host on a shared file system, another
 * pid namespace, no procfs), its lease decides: the holder refreshes the file's mtime, and a lock
 * not refreshed for `leaseMs` is stale. A file that does not parse (empty or torn, as a crash
 * between creating and writing it leaves) is stale once older than a short grace period, so a lock
 * being written right now is not taken.
 */
import * as z from 'zod';
import type { ProcessIdentity, ProcessStatus } from './process-identity.js';

/** The contents of a lock file. Files of older versions carry only pid, hostname and since. */
export const lockRecordSchema = z.looseObject({
  pid: z.number().int(),
  hostname: z.string(),
  /** ISO time the lock was taken. */
  since: z.string().catch('unknown'),
  /** What took it, e.g. `run of hr`. */
  owner: z.string().optional(),
  /** Random; tells two locks of one process apart. */
  token: z.string().optional(),
  bootId: z.string().optional(),
  pidNamespace: z.string().optional(),
  /** The holder's start time in clock ticks since boot (Linux). */
  startTime: z.string().optional(),
  /** How long the holder's refreshes may lapse before the lock is stale. */
  leaseMs: z.number().int().positive().optional(),
});

/** Who holds a lock, as its lock file says. */
export type LockHolder = z.infer<typeof lockRecordSchema>;

/** The holder in a lock file, or undefined when the text is not a lock record (empty, torn, garbage). */
export function parseLockRecord(text: string): LockHolder | undefined {
  try {
    const parsed = lockRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What {@link isStale} weighs. */
export interface StaleCheck {
  /** The parsed file; undefined when it did not parse. */
  holder: LockHolder | undefined;
  /** Time since the file was last written or refreshed (its mtime). */
  ageMs: number;
  /** This process. */
  self: ProcessIdentity;
  /** Looks a pid up in this process's pid namespace. */
  status: (pid: number) => ProcessStatus;
  /** Lease of a holder whose file names none (files of older versions). */
  defaultLeaseMs: number;
  /** Age after which an unparsable file is debris rather than a lock being written. */
  graceMs: number;
}

/** Whether the lock described can be taken over. */
export function isStale(check: StaleCheck): boolean {
  const { holder, ageMs, self } = check;
  if (holder === undefined) return ageMs > check.graceMs;
  const expired = ageMs > (holder.leaseMs ?? check.defaultLeaseMs);
  // The host name names the machine, as it always has here; boot id and namespace refine it.
  if (holder.hostname !== self.hostname) return expired;
  if (holder.bootId !== undefined && self.bootId !== undefined && holder.bootId !== self.bootId) return true;
  if (
    holder.pidNamespace !== undefined &&
    self.pidNamespace !== undefined &&
    holder.pidNamespace !== self.pidNamespace
  )
    return expired;
  const now = check.status(holder.pid);
  if (!now.alive) return true;
  if (holder.startTime !== undefined && now.startTime !== undefined)
    return holder.startTime !== now.startTime;
  // A live pid that cannot be told from a reused one (no procfs, or a file of an older version).
  return expired;
}
