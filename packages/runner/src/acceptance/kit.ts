/**
 * What the checks of one acceptance run share: how the connector is run, and what every run left
 * behind (log lines, errors) for the secret search.
 *
 * The connector runs as `oaa run --dry-run` runs it, through the runner's own `runConnector`:
 * its config parsed by its `configSchema` with the runner's errors, `ctx` from the runner's
 * `createConnectorContext` over the given fetch, the result made ready by the runner's extract
 * step (an aborted run gets the runner's `ABORTED`), then the dry run's one pass over the payload,
 * which validates it as runs do (`validateAsRead`), counts, digests and diffs it, reading each
 * streamed collection once. The kit only wraps `extract` to watch it (see `probe.ts`) and gives
 * the run a fetch that counts the requests of `ctx.http` (and, for some checks, injects faults).
 *
 * The first successful extract (the extract check's) saves its payload to a temporary file, for
 * the secret search and to give later runs a saved state: a state directory written with the
 * runner's own `StateStore` and snapshot writer, as the push of that payload would have left it,
 * with the `ctx.state` values the connector set. A dry run with that state diffs against it (so a
 * second extract that differs says how) and hands the saved values to the connector.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connector, ConnectorContext, JsonObject } from '@oaakit/core';
import { createLogger } from '../logger.js';
import { runConnector } from '../pipeline/run-connector.js';
import type { RunResult } from '../pipeline/run-types.js';
import { StateStore } from '../state/state-store.js';
import { STATE_FORMAT_VERSION } from '../state/stored-state.js';
import type { StoredState } from '../state/stored-state.js';
import { writeHashSnapshot } from '../testing/hash-snapshot.js';
import { RunProbe } from './probe.js';
import type { ProgressSign } from './probe.js';
import type { AcceptanceCheckName, AcceptanceOptions } from './types.js';

/** The provider and data source names of the kit's runs (nothing is pushed). */
const TARGET_NAME = 'oaakit acceptance';

/** How long one run may take before the kit aborts it. */
const RUN_LIMIT_MS = 5 * 60_000;
/** How long an aborted run is waited for before the kit gives up on it. */
const ABORT_GRACE_MS = 5_000;

/** How often RSS is sampled while a run goes on (besides at each request, item and progress call). */
const SAMPLE_EVERY_MS = 50;

/** How one run of the kit is set up. */
export interface RunSpec {
  /** The check the run is for: its log lines and errors are attributed to it. */
  check: AcceptanceCheckName;
  /** Secrets in place of the given ones. */
  secrets?: Readonly<Record<string, string>>;
  /** Wraps the source fetch, e.g. to inject faults. */
  fault?: (inner: typeof globalThis.fetch) => typeof globalThis.fetch;
  signal?: AbortSignal;
  /** The state the run reads; default none. */
  store?: StateStore;
  /** Saves the payload there (the dry run's `savePayload`). */
  savePayload?: string;
  /** Called at the run's first sign of progress. */
  onSign?: (sign: ProgressSign) => void;
}

/** A run under way. */
export interface StartedRun {
  probe: RunProbe;
  done: Promise<RunResult>;
}

/** A run that ended: its result or its error. */
export interface EndedRun {
  probe: RunProbe;
  result?: RunResult;
  error?: unknown;
  /** The run did not end within the kit's limit (it was aborted, then left). */
  hung?: boolean;
}

/** The extract check's run, and what it left for the others. */
export interface Baseline extends EndedRun {
  /** The payload as serialized, when the run succeeded. */
  payloadFile?: string;
  /** The connector's `ctx.state` values after the run, as the runner would save them. */
  stateValues: Record<string, unknown>;
}

/** A promise's outcome, or none when it did not settle within `ms` (the promise is left running). */
export async function within<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ settled: true; value?: T; error?: unknown; ok: boolean } | { settled: false }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ settled: false }>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false }), ms);
    timer.unref();
  });
  const settled = promise.then(
    (value) => ({ settled: true as const, ok: true, value }),
    (error: unknown) => ({ settled: true as const, ok: false, error }),
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One log line and the check whose run wrote it. */
export interface LogLine {
  check: AcceptanceCheckName;
  text: string;
}

/** The shared context of the checks. */
export class AcceptanceKit {
  readonly connectorId: string;
  readonly secrets: Readonly<Record<string, string>>;
  readonly logs: LogLine[] = [];
  readonly errors: { check: AcceptanceCheckName; error: unknown }[] = [];
  private readonly empty: StateStore;
  private baselineRun: Promise<Baseline> | undefined;
  private secondRun: Promise<EndedRun | undefined> | undefined;
  private stores = 0;

  private constructor(
    readonly connector: Connector,
    readonly options: AcceptanceOptions,
    readonly dir: string,
  ) {
    this.connectorId = options.connectorId ?? connector.id;
    this.secrets = options.secrets ?? {};
    this.empty = new StateStore(join(dir, 'no-state'));
  }

  /** A kit with its temporary directory; `close` removes it. */
  static async open(connector: Connector, options: AcceptanceOptions): Promise<AcceptanceKit> {
    return new AcceptanceKit(connector, options, await mkdtemp(join(tmpdir(), 'oaakit-acceptance-')));
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Notes an error a check saw, for the secret search. */
  noteError(check: AcceptanceCheckName, error: unknown): void {
    this.errors.push({ check, error });
  }

  /** Starts a dry run of the connector (see the file comment). */
  start(spec: RunSpec): StartedRun {
    const probe = new RunProbe(spec.onSign);
    const source = this.options.fetch ?? globalThis.fetch;
    const fetch = probe.countFetch(spec.fault ? spec.fault(source) : source);
    const connector = this.connector;
    const watched: Connector = Object.freeze({
      ...connector,
      async extract(ctx: ConnectorContext<unknown, string>) {
        const result: unknown = await connector.extract(probe.watchContext(ctx));
        probe.watchResult(result);
        return result as Awaited<ReturnType<Connector['extract']>>;
      },
    });
    const logger = createLogger({
      level: 'trace',
      destination: {
        write: (line: string) => {
          this.logs.push({ check: spec.check, text: line.trimEnd() });
          this.options.log?.(line);
        },
      },
    });
    const sampler = setInterval(() => probe.sample(), SAMPLE_EVERY_MS);
    sampler.unref();
    const done = runConnector({
      connector: watched,
      connectorId: this.connectorId,
      config: this.options.config,
      secrets: spec.secrets ?? this.secrets,
      provider: TARGET_NAME,
      dataSource: TARGET_NAME,
      state: spec.store ?? this.empty,
      dryRun: true,
      logger,
      sourceFetch: fetch,
      ...(spec.signal === undefined ? {} : { signal: spec.signal }),
      ...(spec.savePayload === undefined ? {} : { savePayload: spec.savePayload }),
      ...(this.options.baseDir === undefined ? {} : { baseDir: this.options.baseDir }),
    });
    void done.then(
      () => {
        probe.sample();
        clearInterval(sampler);
      },
      (error: unknown) => {
        clearInterval(sampler);
        this.noteError(spec.check, error);
      },
    );
    return { probe, done };
  }

  /**
   * Runs to the end. A run still going after 5 minutes is aborted, and left if it does not end
   * within 5 s more (`hung`).
   */
  async run(spec: RunSpec): Promise<EndedRun> {
    const limit = new AbortController();
    const signal = spec.signal === undefined ? limit.signal : AbortSignal.any([spec.signal, limit.signal]);
    const { probe, done } = this.start({ ...spec, signal });
    let outcome = await within(done, RUN_LIMIT_MS);
    if (!outcome.settled) {
      limit.abort(new Error(`the run did not end within ${RUN_LIMIT_MS / 60_000} minutes`));
      outcome = await within(done, ABORT_GRACE_MS);
      if (!outcome.settled) return { probe, hung: true };
    }
    return outcome.ok ? { probe, result: outcome.value! } : { probe, error: outcome.error };
  }

  /** The extract check's run (once; the payload saved, the state values kept). */
  baseline(): Promise<Baseline> {
    this.baselineRun ??= (async () => {
      const payloadFile = join(this.dir, 'payload.json');
      const ended = await this.run({ check: 'extract', savePayload: payloadFile });
      return {
        ...ended,
        ...(ended.result === undefined ? {} : { payloadFile }),
        stateValues: ended.probe.stateValues({}),
      };
    })();
    return this.baselineRun;
  }

  /** The payload of the extract check, parsed; undefined when it failed. */
  async baselinePayload(): Promise<JsonObject | undefined> {
    const base = await this.baseline();
    if (base.payloadFile === undefined) return undefined;
    return JSON.parse(await readFile(base.payloadFile, 'utf8')) as JsonObject;
  }

  /**
   * A state directory as a push of the extract check's payload would have left it (its snapshot,
   * digest and counts), with `connectorState` as the connector's saved values; undefined when the
   * extract check failed.
   */
  async savedState(connectorState: Record<string, unknown>): Promise<StateStore | undefined> {
    const base = await this.baseline();
    const payload = await this.baselinePayload();
    if (base.result === undefined || payload === undefined) return undefined;
    const store = new StateStore(join(this.dir, `state-${++this.stores}`));
    const lock = await store.lock(this.connectorId, { owner: 'oaakit acceptance' });
    try {
      const snapshot = await store.openSnapshot(this.connectorId, randomBytes(16).toString('hex'));
      await writeHashSnapshot(snapshot, this.connector.template, payload);
      const now = new Date().toISOString();
      const state: StoredState = {
        version: STATE_FORMAT_VERSION,
        connectorId: this.connectorId,
        plugin: { id: this.connector.id, version: this.connector.version },
        template: this.connector.template,
        provider: { id: 'acceptance-provider', name: TARGET_NAME },
        dataSource: { id: 'acceptance-data-source', name: TARGET_NAME },
        digest: base.result.digest,
        counts: { ...base.result.counts },
        snapshot: snapshot.name,
        pushedAt: now,
        updatedAt: now,
        connectorState,
      };
      await store.commit(this.connectorId, { state, snapshot });
    } finally {
      await lock.release();
    }
    return store;
  }

  /** A second extract of the unchanged source, without saved values (once); undefined when the first failed. */
  secondExtract(): Promise<EndedRun | undefined> {
    this.secondRun ??= (async () => {
      const store = await this.savedState({});
      return store === undefined ? undefined : this.run({ check: 'idempotent', store });
    })();
    return this.secondRun;
  }

  /** Whether two extracts of the unchanged source gave the same digest; undefined when one failed. */
  async isIdempotent(): Promise<boolean | undefined> {
    const [base, second] = [await this.baseline(), await this.secondExtract()];
    if (base.result === undefined || second?.result === undefined) return undefined;
    return base.result.digest === second.result.digest;
  }
}
