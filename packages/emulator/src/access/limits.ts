/**
 * Bounds of the effective-access computation. A graph that needs more is answered with a 400 naming
 * the query field to narrow, never with a long stall.
 */
import { badField } from '../errors.js';

export const ACCESS_LIMITS = {
  /** Levels of group nesting, identity links and role nesting followed from one node. */
  depth: 64,
  /** Nodes one reverse walk (who reaches a destination) may visit. */
  reverseVisits: 250_000,
} as const;

/** A bound of the computation was reached; `field` is the request field the caller should narrow. */
export class AccessLimitError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'AccessLimitError';
  }
}

/** The 400 a route answers for `err`. */
export function limitToBadRequest(err: AccessLimitError): Error {
  return badField(err.field, err.message);
}
