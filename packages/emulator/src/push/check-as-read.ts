/**
 * Validation of a streamed application payload as the graph ingest reads it, with core's
 * `validateAsRead`: everything but the local users and identity_to_permissions entries is checked at
 * once, and those are checked one by one as the ingest reads them from the spool. The ingest writes
 * into the push's transaction; a violation found later in the stream makes `finish` throw, and the
 * transaction is rolled back, so the previous graph stays.
 */
import { validateAsRead, type Violation } from '@oaakit/core';

type Obj = Record<string, unknown>;

/** A collection the ingest reads: entities pass on while no violation has been found. */
class Guarded<T> implements Iterable<T> {
  opened = false;

  constructor(
    private readonly source: Iterable<T>,
    private readonly errors: readonly Violation[],
  ) {}

  *[Symbol.iterator](): Iterator<T> {
    this.opened = true;
    // Past the first violation the rest is still read (every violation is listed) but not written:
    // the ingest never sees an entity that failed its checks.
    for (const entity of this.source) if (this.errors.length === 0) yield entity;
  }

  /** Reads the collection through when the ingest did not (an application it skipped). */
  drain(): void {
    if (this.opened) return;
    for (const _ of this) void _;
  }
}

/** A payload being checked as it is read. */
export interface CheckedRead {
  /** Violations found before anything was read (the payload is invalid: do not ingest it). */
  errors: readonly Violation[];
  /** The payload to hand to the ingest in place of the one given. */
  value: Obj;
  /**
   * After the ingest: reads what it left unread, then throws core's `ValidationError` with every
   * violation if there is any, else answers the warnings.
   */
  finish(): readonly Violation[];
}

/**
 * Starts the checks of an application payload whose large collections are read once, by the ingest.
 * `knownIdentity` is passed to core's validation (identities of identity-provider data).
 */
export function checkAsRead(payload: Obj, knownIdentity: (identity: string) => boolean): CheckedRead {
  const checked = validateAsRead('application', payload, { knownIdentity });
  if (checked.errors.length > 0 || checked.complete)
    return { errors: checked.errors, value: payload, finish: () => checked.warnings };
  const value = checked.value as Obj;
  const guards: Guarded<unknown>[] = [];
  const guard = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const g = new Guarded(v as Iterable<unknown>, checked.errors);
    guards.push(g);
    return g;
  };
  if (Array.isArray(value.applications))
    value.applications = (value.applications as Obj[]).map((app) => ({
      ...app,
      local_users: guard(app.local_users),
    }));
  value.identity_to_permissions = guard(value.identity_to_permissions);
  return {
    errors: [],
    value,
    finish: () => {
      // The last collection read through throws the ValidationError when a check failed.
      for (const g of guards) g.drain();
      if (!checked.complete) throw new Error('validateAsRead did not complete after the ingest');
      return checked.warnings;
    },
  };
}
