/** The acceptance kit's names, options and report (see `run-acceptance.ts` for how a report is made). */
import type { EntityCounts, Template, Violation } from '@oaakit/core';

/** The checks, in the order they are reported. */
export const ACCEPTANCE_CHECKS = [
  'definition',
  'check',
  'extract',
  'idempotent',
  'streams-once',
  'cancels',
  'no-secret-leaks',
  'source-faults',
  'incremental',
  'resources',
] as const;

/** One of {@link ACCEPTANCE_CHECKS}. */
export type AcceptanceCheckName = (typeof ACCEPTANCE_CHECKS)[number];

/** Options of `runAcceptanceChecks` and `runAcceptance`. */
export interface AcceptanceOptions {
  /** The connector's config as a config file would hold it; parsed by its `configSchema` as a run does. */
  config?: unknown;
  /** Values of the connector's declared secrets. */
  secrets?: Readonly<Record<string, string>>;
  /** Where relative paths in the config are resolved from; default the working directory. */
  baseDir?: string;
  /** The fetch of the connector's `ctx.http`: a live source, or a recorded one (`replayFetch`). */
  fetch?: typeof globalThis.fetch;
  /**
   * `fetch` answers from a recording, which matches requests without their credentials: the check
   * check then answers 401 itself to requests that carry a wrong secret (a recording cannot refuse).
   */
  recorded?: boolean;
  /** Only these checks (in the usual order); default all. */
  only?: readonly AcceptanceCheckName[];
  /** Limits the plugin declares (`"oaakit": { "acceptance": { "peakRssMb": 256 } }` in its package.json). */
  bounds?: { peakRssMb?: number };
  /**
   * Receives every log line the connector and the runner write during the checks (JSON, as a run's
   * logger writes them, secrets redacted by the same paths). The kit keeps them either way.
   */
  log?: (line: string) => void;
  /** The connector entry's id (names the temporary state); default the connector's own id. */
  connectorId?: string;
  /**
   * The source without the recording, when `fetch` records it (`oaa plugins test --record`): the
   * check check's requests with a wrong secret go there, so that the recording holds only answers
   * to the given secrets (a replay refuses a wrong one itself, see `recorded`).
   */
  unrecordedFetch?: typeof globalThis.fetch;
  /** Called with each check's result as soon as the check has run (in the order they run). */
  onCheck?: (result: AcceptanceCheckResult) => void;
}

/** What one check found. */
export interface AcceptanceCheckResult {
  /** Which check. */
  name: AcceptanceCheckName;
  /** False only when the check failed: a skipped check is ok. */
  ok: boolean;
  /** The check does not apply to this connector (the reason says why). */
  skipped: boolean;
  /** Why it passed, failed or was skipped; never holds a secret's value. */
  reason: string;
  /** How long the check took. */
  ms: number;
  /** Figures of the check (the extract check's counts and warnings, the resources check's peak). */
  details?: Record<string, unknown>;
}

/** What `runAcceptanceChecks` returns; JSON as it is (`oaa plugins test --json`). */
export interface AcceptanceReport {
  /** The connector checked, as it declares itself. */
  connector: { id: string; version: string; template: Template };
  /** The checks run, in the order of {@link ACCEPTANCE_CHECKS}. */
  checks: AcceptanceCheckResult[];
}

/** The extract check's `details`. */
export interface ExtractDetails {
  /** Entities per kind in the payload. */
  counts: EntityCounts;
  /** Warnings of the run's validation (the service would accept the payload). */
  warnings: Violation[];
  /** The payload's digest (core's `digest`), as a run computes it. */
  digest: string;
  /** Requests through `ctx.http`, retries included. */
  requests: number;
  /** Items read from the payload's streamed collections. */
  streamedItems: number;
  /** Bytes of the serialized payload. */
  jsonBytes: number;
}

/** A check's verdict before the kit times it and clears it of secrets. */
export interface CheckOutcome {
  ok: boolean;
  skipped: boolean;
  reason: string;
  details?: Record<string, unknown>;
}

/** A passed check. */
export function pass(reason: string, details?: Record<string, unknown>): CheckOutcome {
  return { ok: true, skipped: false, reason, ...(details === undefined ? {} : { details }) };
}

/** A failed check. */
export function fail(reason: string, details?: Record<string, unknown>): CheckOutcome {
  return { ok: false, skipped: false, reason, ...(details === undefined ? {} : { details }) };
}

/** A check that does not apply. */
export function skip(reason: string, details?: Record<string, unknown>): CheckOutcome {
  return { ok: true, skipped: true, reason, ...(details === undefined ? {} : { details }) };
}
