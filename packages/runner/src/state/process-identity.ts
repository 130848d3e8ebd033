/**
 * Who a process is, beyond its pid: the pid alone names another process once it is reused, and a
 * restarted container runs its new daemon under the very pid of the old one. On Linux a process is
 * pinned down by the kernel's boot id, its pid namespace and its start time (in clock ticks since
 * boot, from `/proc/<pid>/stat`), all read from procfs. Elsewhere these are unknown and callers fall
 * back to the pid and a lease.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** The identity of this process, as recorded in the lock files it writes. */
export interface ProcessIdentity {
  pid: number;
  hostname: string;
  /** The kernel's boot id; changes at every boot (not at a container restart). */
  bootId?: string;
  /** The pid namespace, e.g. `pid:[4026531836]`; pids compare only within one. */
  pidNamespace?: string;
  /** Start time in clock ticks since boot; with the pid it names one process of one boot. */
  startTime?: string;
}

/** What procfs says about a pid now. */
export interface ProcessStatus {
  /** Whether a process with this pid exists and has not exited (a zombie has). */
  alive: boolean;
  /** Its start time, when readable. */
  startTime?: string;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** State and start time of `/proc/<pid>/stat` (fields 3 and 22; the name in field 2 may hold spaces). */
function procStat(pid: number | 'self'): { state: string; startTime: string } | undefined {
  const text = readProc(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, startTime] = [fields[0], fields[19]];
  return state === undefined || startTime === undefined ? undefined : { state, startTime };
}

function signalZero(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let self: ProcessIdentity | undefined;

/** This process's identity (read once; none of it changes while the process lives). */
export function currentIdentity(): ProcessIdentity {
  if (self !== undefined) return self;
  const identity: ProcessIdentity = { pid: process.pid, hostname: hostname() };
  const bootId = readProc('/proc/sys/kernel/random/boot_id');
  if (bootId) identity.bootId = bootId;
  try {
    identity.pidNamespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux, or procfs hidden: pids are compared without a namespace.
  }
  const stat = procStat('self');
  if (stat !== undefined) identity.startTime = stat.startTime;
  return (self = identity);
}

/** Whether `pid` is a live process of this pid namespace, and when it started where procfs tells. */
export function processStatus(pid: number): ProcessStatus {
  if (!Number.isInteger(pid) || pid <= 0 || !signalZero(pid)) return { alive: false };
  const stat = procStat(pid);
  if (stat === undefined) return { alive: true };
  // Z (zombie) and X (dead): exited, only not yet reaped by its parent.
  return { alive: stat.state !== 'Z' && stat.state !== 'X', startTime: stat.startTime };
}
