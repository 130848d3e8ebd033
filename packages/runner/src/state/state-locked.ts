/** The refusal of a lock that another run holds, whichever backend keeps the lock. */
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { LockHolder } from './lock-record.js';

/** Where a held lock lives and what to do about it, as its backend says. */
export interface LockedWhere {
  /** Details naming the lock (`lockFile`, `lockKey`); the holder is added to them. */
  details: Record<string, unknown>;
  /** What to do: wait, or how the lock ends when its holder is gone. */
  hints: string[];
  /** Who holds the lock when its record cannot be read; default `another run`. */
  unknownHolder?: string;
}

/**
 * `STATE_LOCKED`: `<subject> is locked by` its holder (pid, host, since when, and its owner if any),
 * or by `where.unknownHolder` when the holder cannot be read.
 */
export function stateLocked(subject: string, holder: LockHolder | undefined, where: LockedWhere): OaaError {
  const who =
    holder === undefined
      ? (where.unknownHolder ?? 'another run')
      : `pid ${holder.pid} on ${holder.hostname} since ${holder.since}${holder.owner ? ` (${holder.owner})` : ''}`;
  return new OaaError(`${subject} is locked by ${who}`, {
    code: RUNNER_ERROR_CODES.STATE_LOCKED,
    retryable: true,
    details: { ...where.details, holder: holder ?? null },
    hints: where.hints,
  });
}
