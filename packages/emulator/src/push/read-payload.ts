/**
 * A pushed payload read as a stream: decoded JSON bytes in, the payload object out, with an
 * application payload's local users, resources and identity_to_permissions entries left on disk (see
 * `json-spool.ts`) as collections that are parsed when they are iterated. Memory holds the skeleton
 * of the payload and one batch of entities, not the payload's text nor all of its entities.
 */
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Template } from '@oaakit/core';
import { badField } from '../errors.js';
import { APPLICATION_SPOOL, PayloadScanner, SpoolFile, type ScanResult } from './json-spool.js';
import { SpoolCollection } from './spool-collection.js';
import { storedGzipOf, type StoredGzip } from './stored-gzip.js';

/** A payload read from its bytes, ready to be validated and ingested. */
export interface ReadPayload {
  /** The payload; spooled collections are `SpoolCollection`s in place of arrays. */
  payload: Record<string, unknown>;
  /** Bytes of JSON read. */
  bytes: number;
  /** The payload gzip-compressed, as the submission keeps it for incremental pushes. */
  storedGzip: () => Promise<StoredGzip>;
  /** Removes the spool file; call once the payload was processed. */
  close: () => void;
}

export interface ReadOptions {
  template: Template;
  /** The request field the payload came in, blamed for bad JSON. */
  field: string;
  /**
   * The stored copy, when the caller has the payload gzip-compressed already (a GZIP push); else
   * the bytes are compressed (level 1, on the thread pool) as they are read.
   */
  gzip?: (() => StoredGzip) | undefined;
}

/** Gzip on the thread pool beside the read, its output collected (a tenth of the JSON or less). */
function compressor() {
  const gz = createGzip({ level: 1, chunkSize: 256 * 1024 });
  const out: Buffer[] = [];
  gz.on('data', (b: Buffer) => out.push(b));
  const ended = once(gz, 'end');
  ended.catch(() => undefined);
  return {
    write: async (piece: Buffer) => {
      if (!gz.write(piece)) await once(gz, 'drain');
    },
    end: async (): Promise<StoredGzip> => {
      gz.end();
      await ended;
      return storedGzipOf(out);
    },
    destroy: () => gz.destroy(),
  };
}

/** The objects of the payload's `applications` array, where spooled collections may be. */
function applicationsOf(payload: Record<string, unknown>): Record<string, unknown>[] {
  if (!Array.isArray(payload.applications)) return [];
  return (payload.applications as unknown[]).filter(
    (app): app is Record<string, unknown> => app !== null && typeof app === 'object' && !Array.isArray(app),
  );
}

/** The payload object of a scan: the skeleton parsed, spooled arrays attached where they were. */
function assemble(scan: ScanResult, spool: SpoolFile, field: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(scan.skeleton.toString('utf8'));
  } catch (err) {
    throw badField(field, `is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badField(field, 'must hold a JSON object (the populated template)');
  const payload = value as Record<string, unknown>;
  const attach = (holder: Record<string, unknown>, key: string) => {
    const v = holder[key];
    if (typeof v !== 'string' || !v.startsWith(scan.token)) return;
    const region = scan.regions[Number(v.slice(scan.token.length))]!;
    holder[key] = new SpoolCollection(spool.fd, region, field);
  };
  attach(payload, 'identity_to_permissions');
  for (const app of applicationsOf(payload))
    for (const key of APPLICATION_SPOOL.inApplications) attach(app, key);
  return payload;
}

/**
 * Reads a payload from `source` (its decoded JSON bytes in pieces). Throws 400 naming
 * `options.field` for bytes that are not UTF-8 or not JSON, or a payload that is not an object.
 */
export async function readPayload(
  source: Iterable<Buffer> | AsyncIterable<Buffer>,
  options: ReadOptions,
): Promise<ReadPayload> {
  const spool = new SpoolFile();
  const gz = options.gzip ? undefined : compressor();
  try {
    const paths = options.template === 'application' ? APPLICATION_SPOOL : { top: [], inApplications: [] };
    const scanner = new PayloadScanner(spool, paths, options.field);
    for await (const piece of source) {
      scanner.write(piece);
      if (gz) await gz.write(piece);
    }
    const scan = scanner.end();
    const payload = assemble(scan, spool, options.field);
    const stored = gz ? gz.end() : Promise.resolve(options.gzip!());
    stored.catch(() => undefined);
    return { payload, bytes: scan.bytes, storedGzip: () => stored, close: () => spool.close() };
  } catch (err) {
    gz?.destroy();
    spool.close();
    throw err;
  }
}

/** Whether `v` is a collection left on disk by `readPayload`. */
export function isSpooled(v: unknown): v is SpoolCollection<unknown> {
  return v instanceof SpoolCollection;
}

/** The payload with every spooled collection read into an array (the in-memory path). */
export function materialize(payload: Record<string, unknown>): Record<string, unknown> {
  const fill = (holder: Record<string, unknown>, key: string) => {
    const v = holder[key];
    if (isSpooled(v)) holder[key] = Array.from(v);
  };
  fill(payload, 'identity_to_permissions');
  for (const app of applicationsOf(payload))
    for (const key of APPLICATION_SPOOL.inApplications) fill(app, key);
  return payload;
}
