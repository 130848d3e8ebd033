/** Options, progress events and the result of a connector run. */
import type { Client, PushWarning } from '@oaakit/client';
import type { Connector, EntityCounts, EntityKind, KindCounts, Template, Violation } from '@oaakit/core';
import type { Logger } from 'pino';
import type { StateStore } from '../state/state-store.js';
import type { AwaitParseOptions, ParseOutcome } from './await-parse.js';
import type { ConnectorWarning } from './connector-warnings.js';

/** The stages a run reports progress for. */
export type RunPhase = 'extract' | 'validate' | 'diff' | 'push';

/** One progress event; the CLI renders them, the daemon turns them into metrics. */
export interface RunProgressEvent {
  connectorId: string;
  phase: RunPhase;
  kind: 'start' | 'progress' | 'end';
  /** extract: the connector's own step (`ctx.progress.start('users')`). */
  step?: string;
  /** extract: items done in `step`, and the total when the connector knows it. */
  done?: number;
  total?: number;
  /** extract and validate end: entities per kind. */
  counts?: EntityCounts;
  /** validate end: how many errors and warnings. */
  errors?: number;
  warnings?: number;
  /** diff end: what changed. */
  diff?: DiffSummary;
  /** push: bytes of JSON serialized and of gzip produced so far. */
  jsonBytes?: number;
  compressedBytes?: number;
}

/** What changed since the last push, per entity kind (kinds with no change are left out). */
export interface DiffSummary {
  /** True when there is no earlier push to compare with: everything counts as added. */
  firstPush: boolean;
  /** A top-level field outside the entity collections changed. */
  headerChanged: boolean;
  byKind: Partial<Record<EntityKind, KindCounts>>;
  totals: KindCounts;
  /**
   * Names (else keys) of the entities removed since the last push, per kind: at most 100 per kind
   * (the counts are in `byKind`). Absent when nothing was removed.
   */
  removedNames?: Partial<Record<EntityKind, string[]>>;
}

/** The deletion guard's verdict. */
export interface GuardVerdict {
  /** The identity kind watched: `local_users`, `users` or `employees`. */
  kind: EntityKind;
  /** Identities in the last push. */
  previous: number;
  /** Identities this run would remove. */
  removed: number;
  /** Names of the identities it would remove (at most 100; see `DiffSummary.removedNames`). */
  removedNames?: string[];
  /** removed / previous (0 when previous is 0). */
  share: number;
  /** The largest share allowed. */
  maxShare: number;
  /** Whether the push is refused (false when forced or within the share). */
  refused: boolean;
  forced: boolean;
}

/** Options of a run that the CLI exposes as flags. */
export interface RunFlags {
  /** Everything up to the push, then stop: no network, no state change. */
  dryRun?: boolean;
  /** Push even when the deletion guard would refuse. */
  force?: boolean;
  /** Largest share (0..1) of the last push's identities a run may remove; default 0.2. */
  maxDeletionShare?: number;
  /** Writes the payload to this file: JSON, or gzip when the name ends in `.gz`. */
  savePayload?: string;
  /** How long to wait for another run of the same data source; default 0 (refuse at once). */
  lockWaitMs?: number;
  /**
   * After the push, wait (bounded; default 30 s) for the service's parse outcome and OAA_PUSH event;
   * `false` skips it. A push the service reports as failed fails the run.
   */
  awaitParse?: AwaitParseOptions | false;
  /**
   * Records every request the connector makes to its source, and the answers, in this HAR file,
   * written when the run ends, whether it succeeded or failed (`log.comment` says which). Credential
   * headers, the connector's secret values and the `scrubFields` are scrubbed. Not with `replay`.
   */
  record?: string;
  /**
   * Answers the connector's source requests from this HAR file (one `record` wrote) instead of the
   * source; a request it has no answer for fails the run with `REPLAY_UNMATCHED`. Not with `record`.
   */
  replay?: string;
  signal?: AbortSignal;
  onProgress?: (event: RunProgressEvent) => void;
}

/** Transport options of the push. */
export interface PushSettings {
  /** Largest request body; default the service's 100 MB. Smaller values force multipart (tests). */
  maxBodyBytes?: number;
  /** Multipart chunks in flight; default 3. */
  concurrency?: number;
  /** gzip level 0-9; default 6. */
  gzipLevel?: number;
}

/** Options of `runConnector`. */
export interface RunConnectorOptions extends RunFlags {
  connector: Connector;
  /** The config entry's id; names the state directory. Default the connector's own id. */
  connectorId?: string;
  /** The connector's config as written; checked by its `configSchema`. */
  config?: unknown;
  /** Where `config` sits in the config file, for messages; default `config`. */
  configKeyPath?: string;
  /** Resolved secret values (see `resolveSecrets`). */
  secrets?: Readonly<Record<string, string>>;
  provider: string;
  dataSource: string;
  /** The service client; required unless `dryRun`. */
  client?: Client;
  state: StateStore;
  logger?: Logger;
  push?: PushSettings;
  /** fetch of the connector's `ctx.http`; default the global one. `replay` replaces it, `record` wraps it. */
  sourceFetch?: typeof globalThis.fetch;
  /**
   * Names whose values `record` scrubs besides the secrets (JSON body fields, query and form
   * parameters, headers), and `replay` scrubs from each request before matching it: the config
   * entry's `record.scrubFields`.
   */
  scrubFields?: readonly string[];
  /** Where relative paths in the connector's config are resolved from; default the working directory. */
  baseDir?: string;
}

/** A provider or data source the run pushed to. */
export interface TargetRef {
  id: string;
  name: string;
  /** Whether this run created it. */
  created: boolean;
}

/** What every run result holds, whatever its status. */
export interface RunResultCommon {
  connectorId: string;
  connector: { id: string; version: string };
  template: Template;
  /** Entities per kind in the payload. */
  counts: EntityCounts;
  digest: string;
  diff: DiffSummary;
  guard: GuardVerdict | undefined;
  /** Set when something was pushed or saved with `savePayload`. */
  bytes?: { json: number; compressed: number };
  /** The service's warnings on the push. */
  warnings: PushWarning[];
  /** Warnings of local validation (e.g. a role without permissions). */
  validationWarnings: Violation[];
  /**
   * What the connector reported with `ctx.logger.warn` (findings that are not errors, such as a
   * group cycle it broke): the first 1,000, redacted as the log redacts them. The log has them too.
   */
  connectorWarnings: ConnectorWarning[];
  /** How many more warnings the connector reported than `connectorWarnings` lists; absent when none. */
  connectorWarningsOmitted?: number;
  /** Where the payload was saved, when asked. */
  savedPayload?: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
}

/** The payload was pushed to the provider and data source (created by this run when new). */
export interface PushedRunResult extends RunResultCommon {
  status: 'pushed';
  provider: TargetRef;
  dataSource: TargetRef;
  bytes: { json: number; compressed: number };
  push: { mode: 'single' | 'multipart'; chunks: number };
  /** The service's verdict on the push (absent when `awaitParse` is false). */
  parse?: ParseOutcome;
}

/** Nothing changed since the last push, whose provider and data source still exist: no push. */
export interface SkippedRunResult extends RunResultCommon {
  status: 'skipped';
  skipped: 'unchanged';
  provider: TargetRef;
  dataSource: TargetRef;
}

/** Everything up to the push ran, then the run stopped: only the configured names are known. */
export interface DryRunResult extends RunResultCommon {
  status: 'dry-run';
  provider: { name: string };
  dataSource: { name: string };
}

/**
 * What a run did, by `status`; also written as `last-run.json` and the CLI's `--json` / `--report`.
 * Narrow on `status` to read what only that outcome has (the ids of a pushed run's targets).
 */
export type RunResult = PushedRunResult | SkippedRunResult | DryRunResult;
