/**
 * What every push path ends in (JSON push, CSV push, multipart `complete`): validate with
 * `@oaakit/core`, apply an incremental payload to the stored one, then replace the data source's
 * submission, set its status and record the OAA_PUSH event, all in one transaction.
 *
 * A full application payload is validated as the ingest reads it (`check-as-read.ts`): its local
 * users and grants come from the spool one batch at a time, are checked, and written into the
 * transaction, which is rolled back when a violation turns up later in the stream. Other templates
 * and incremental payloads are read into memory and validated whole before anything is written.
 */
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import {
  applyIncremental,
  validate,
  ValidationError,
  type JsonObject,
  type Template,
  type Violation,
} from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { commitWithDeferredCheckpoint } from '../db/checkpointer.js';
import type { Db } from '../db/schema.js';
import { workerConnection } from '../db/worker-connection.js';
import { ApiError, badField, invalidArgument } from '../errors.js';
import { setDataSourceStatus } from '../store/data-sources.js';
import { mergeProviderTypes } from '../store/providers.js';
import { lastLoginLookup } from '../last-login/lookup.js';
import { checkAsRead } from './check-as-read.js';
import { MAX_PAYLOAD_BYTES } from './limits.js';
import { materialize, type ReadPayload } from './read-payload.js';
import { recordPushEvent, recordPushFailure } from './push-events.js';
import { resourceDepthViolation } from './resource-depth.js';
import { storedDigest, storedGzipOf, type StoredGzip } from './stored-gzip.js';
import { BULK_BYTES, replaceSubmission, storedPayloadText } from './submission.js';
import type { PushAnswer, PushTarget } from './target.js';

const gzip = promisify(gzipCb);

/** Most violations or warnings listed in one answer; the rest are summarized in a last entry. */
export const MAX_REPORTED = 1000;

export interface PayloadInput {
  /** The payload as read from its bytes; `processPayload` closes it. */
  read: ReadPayload;
  /** The request field that carried the payload, blamed for parse problems. */
  field: string;
  /** Rewrites validation errors (a CSV push points them at CSV lines). */
  mapViolation?: ((v: Violation) => Violation) | undefined;
  /** Where a warning points, said after its text; default its JSON path (a CSV push: a CSV line). */
  locateWarning?: ((v: Violation) => string) | undefined;
}

function capViolations(violations: readonly Violation[], field: string): Violation[] {
  if (violations.length <= MAX_REPORTED) return [...violations];
  return [
    ...violations.slice(0, MAX_REPORTED),
    { field, description: `... and ${violations.length - MAX_REPORTED} more violations` },
  ];
}

/**
 * A warning's text: its description first, then where it points. The service's texts begin with
 * the description (`Cannot find identity by names "..."`), and clients match on that beginning.
 */
function warningText(v: Violation, input: PayloadInput): string {
  const at = input.locateWarning ? input.locateWarning(v) : v.field;
  return at ? `${v.description} (at ${at})` : v.description;
}

/** The warnings of a validation: those listed, and how many unmatched identities were only counted. */
interface Warnings {
  listed: string[];
  unlistedIdentities: number;
}

const NO_WARNINGS: Warnings = { listed: [], unlistedIdentities: 0 };

/**
 * At most `MAX_REPORTED` warnings, then one last entry counting the rest: the warnings past the
 * limit and the unmatched identities that were only counted (so their number is never cut off).
 */
function capTexts(texts: readonly string[], unlistedIdentities: number): string[] {
  const identities =
    unlistedIdentities > 0
      ? `${unlistedIdentities} more identities that match no identity-provider user or group (not listed)`
      : undefined;
  if (texts.length <= MAX_REPORTED) return identities ? [...texts, `... and ${identities}`] : [...texts];
  const more = `${texts.length - MAX_REPORTED} more warnings`;
  return [...texts.slice(0, MAX_REPORTED), `... and ${identities ? `${more}, and ${identities}` : more}`];
}

/**
 * Whether an identity matches a name, email or identity of any identity-provider entity pushed so
 * far. Past `MAX_REPORTED` misses it answers "known" and only counts, so a payload of a million
 * unmatched identities does not build a million warnings that nobody will be shown.
 */
function identityLookup(db: Db): { known: (identity: string) => boolean; uncounted: () => number } {
  let keys: Set<string> | undefined;
  let misses = 0;
  return {
    known: (identity) => {
      keys ??= new Set(db.prepare<[], string>('SELECT DISTINCT key FROM identity_keys').pluck().all());
      if (keys.has(identity.toLowerCase())) return true;
      misses += 1;
      return misses > MAX_REPORTED;
    },
    uncounted: () => Math.max(0, misses - MAX_REPORTED),
  };
}

function validateOrThrow(
  template: Template,
  payload: Record<string, unknown>,
  db: Db,
  input: PayloadInput,
): Warnings {
  const tooDeep = template === 'application' ? resourceDepthViolation(payload) : undefined;
  if (tooDeep) throw invalidArgument([tooDeep]);
  const lookup = identityLookup(db);
  const { errors, warnings } = validate(template, payload, { knownIdentity: lookup.known });
  const map = input.mapViolation ?? ((v: Violation) => v);
  if (errors.length > 0) throw invalidArgument(capViolations(errors.map(map), input.field));
  return warningsOf(warnings, lookup, input);
}

function applyStored(
  ctx: EmulatorContext,
  target: PushTarget,
  incremental: Record<string, unknown>,
): Record<string, unknown> {
  const stored = storedPayloadText(ctx.db, target.dataSource.id, MAX_PAYLOAD_BYTES);
  if (stored === 'too large') {
    throw badField(
      'incremental_change',
      `the stored payload is larger than ${MAX_PAYLOAD_BYTES} bytes of JSON, the most an incremental payload can be applied to (it is applied in memory): push the full payload`,
    );
  }
  if (stored === undefined) {
    throw badField(
      'incremental_change',
      'an incremental payload is not allowed as the first push to a data source: push the full payload first',
    );
  }
  try {
    return applyIncremental(
      target.provider.custom_template,
      JSON.parse(stored.text) as JsonObject,
      incremental,
    );
  } catch (err) {
    if (err instanceof ValidationError) throw invalidArgument(capViolations(err.violations, 'json_data'));
    throw err;
  }
}

function warningsOf(
  warnings: readonly Violation[],
  lookup: ReturnType<typeof identityLookup>,
  input: PayloadInput,
): Warnings {
  return {
    listed: warnings.map((v) => warningText(v, input)),
    unlistedIdentities: lookup.uncounted(),
  };
}

/** A full application payload: checked as the ingest reads it, inside the transaction. */
function startAsRead(ctx: EmulatorContext, payload: Record<string, unknown>, input: PayloadInput) {
  const tooDeep = resourceDepthViolation(payload);
  if (tooDeep) throw invalidArgument([tooDeep]);
  const lookup = identityLookup(ctx.db);
  const checked = checkAsRead(payload, lookup.known);
  const map = input.mapViolation ?? ((v: Violation) => v);
  if (checked.errors.length > 0) throw invalidArgument(capViolations(checked.errors.map(map), input.field));
  return {
    value: checked.value,
    /**
     * Call after the ingest, inside the transaction: throws (rolling it back) or answers the
     * warnings. Core's ValidationError, thrown here or while the ingest reads, becomes a 400 by
     * `rejected`.
     */
    finish: (): Warnings => warningsOf(checked.finish(), lookup, input),
    rejected: (err: unknown): unknown =>
      err instanceof ValidationError
        ? invalidArgument(capViolations(err.violations.map(map), input.field))
        : err,
  };
}

/** Processes one pushed payload for `target`; answers its warnings or throws 400. */
export async function processPayload(
  ctx: EmulatorContext,
  target: PushTarget,
  input: PayloadInput,
): Promise<PushAnswer> {
  const template = target.provider.custom_template;
  const { read } = input;
  try {
    let payload = read.payload;
    let warnings = NO_WARNINGS;
    let asRead: ReturnType<typeof startAsRead> | undefined;
    let payloadGzip: StoredGzip;
    const incremental = payload.incremental_change === true && template !== 'hris';
    if (incremental) {
      // Incremental payloads are applied to the stored payload in memory (see the README).
      payload = materialize(payload);
      validateOrThrow(template, payload, ctx.db, input);
      payload = applyStored(ctx, target, payload);
      warnings = validateOrThrow(template, payload, ctx.db, input);
      payloadGzip = storedGzipOf([await gzip(JSON.stringify(payload), { level: 1 })]);
    } else if (template === 'application') {
      asRead = startAsRead(ctx, payload, input);
      payload = asRead.value;
      payloadGzip = await read.storedGzip();
    } else {
      warnings = validateOrThrow(template, materialize(payload), ctx.db, input);
      payloadGzip = await read.storedGzip();
    }
    const at = ctx.clock.iso();
    const lastLogin =
      template === 'application'
        ? lastLoginLookup(ctx.db, { dataSourceId: target.dataSource.id, payload, replay: incremental })
        : undefined;
    const bulk = read.bytes >= BULK_BYTES;
    // A bulk push to a database file writes on a connection of a worker thread, beside this one.
    const worker = bulk ? workerConnection(ctx.db) : undefined;
    const db = worker?.asDb() ?? ctx.db;
    const transaction = db.transaction(() => {
      const result = replaceSubmission(db, {
        providerId: target.provider.id,
        dataSourceId: target.dataSource.id,
        template,
        payload,
        payloadBytes: read.bytes,
        payloadGzip,
        pushedAt: at,
        lastLogin,
        afterIngest: () => {
          if (asRead) warnings = asRead.finish();
        },
      });
      const all = capTexts([...warnings.listed, ...result.warnings], warnings.unlistedIdentities);
      setDataSourceStatus(db, target.dataSource.id, 'SUCCESS', at);
      mergeProviderTypes(db, target.provider.id, result.types);
      recordPushEvent(db, target, at, all, storedDigest(payloadGzip));
      return all;
    });
    let texts: string[];
    try {
      // A bulk submission's pages are copied into the database file by a worker thread.
      texts = commitWithDeferredCheckpoint(
        ctx.db,
        bulk,
        transaction,
        worker && { connection: db, checkpoint: () => worker.checkpoint() },
      );
    } catch (err) {
      throw asRead ? asRead.rejected(err) : err;
    }
    ctx.logger.info(
      { request_id: target.requestId, data_source_id: target.dataSource.id, warnings: texts.length },
      'payload ingested',
    );
    return { warnings: texts.map((message) => ({ message })) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) recordFailure(ctx, target, err.violations);
    throw err;
  } finally {
    read.close();
  }
}

/** Marks the data source FAILED and records the rejected push. */
export function recordFailure(
  ctx: EmulatorContext,
  target: PushTarget,
  violations: readonly Violation[],
): void {
  const at = ctx.clock.iso();
  ctx.db.transaction(() => {
    setDataSourceStatus(ctx.db, target.dataSource.id, 'FAILED', at);
    recordPushFailure(ctx.db, target, at, violations);
  })();
}
