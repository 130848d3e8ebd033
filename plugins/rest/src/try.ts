/**
 * `oaa manifest try`: one page of a stream, each raw record shown next to what every mapping of
 * that stream makes of it, the way a connector builder shows a request and its result. Errors of a
 * mapping are shown at the record they failed on, not thrown, so one bad field does not hide the
 * rest.
 */
import { OaaError, isOaaError, type ConnectorLogger, type SourceHttp } from '@oaakit/core';
import { manifestConfigSchema } from './connector.js';
import { textOf } from './engine/expressions.js';
import { ManifestRun } from './engine/run.js';
import { shownUrl } from './engine/requester.js';
import { REST_ERROR_CODES, type RestErrorCode } from './errors.js';
import type { CompiledManifest } from './manifest/compile.js';
import { formatPath } from './manifest/source-map.js';

/** Options of {@link tryStream}. */
export interface TryOptions {
  /** The stream to read. */
  stream: string;
  /** The vars, as a config gives them (defaults are applied here). */
  vars?: Record<string, unknown>;
  secrets?: Readonly<Record<string, string>>;
  /** The source HTTP (the runner's `createSourceHttp`). */
  http: SourceHttp;
  signal?: AbortSignal;
  logger?: ConnectorLogger;
  /** Pages read per request chain; default 1. */
  pages?: number;
  /** Records shown at most; default 20. */
  records?: number;
}

/** What one mapping made of one record. */
export interface TriedMapping {
  /** The entity kind, as the manifest names it (`local_users`, `grants`...). */
  kind: string;
  /** Where the mapping is, e.g. `payload.local_users`. */
  path: string;
  entities?: Record<string, unknown>[];
  /** The mapping's error on this record, with its manifest path and line. */
  error?: string;
}

/** One record of the page, raw and mapped. */
export interface TriedRecord {
  record: unknown;
  partition?: Record<string, unknown>;
  /** The record of the for_each stream this one was read for. */
  parent?: unknown;
  mappings: TriedMapping[];
}

/** What `tryStream` read and made. */
export interface TryResult {
  manifest: string;
  stream: string;
  /** The requests of the stream's pages (URLs without their query credentials). */
  pages: { url: string; status: number; records: number }[];
  /** Requests made in all, those of indexes the mappings use included. */
  requests: number;
  /** Records read (more may have been read than shown). */
  read: number;
  records: TriedRecord[];
  /** The mappings of other streams: not run here. */
  otherStreams: string[];
  /** Permission names the mappings made that the permission_types table lacks. */
  unmappedPermissions: string[];
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads the first page(s) of `stream` and maps each record with every mapping of that stream.
 * Throws `MANIFEST_INVALID` for an unknown stream or vars the manifest refuses, and what the
 * source answers (a refused credential, an unreachable URL) as the run would.
 */
export async function tryStream(compiled: CompiledManifest, options: TryOptions): Promise<TryResult> {
  const { stream } = options;
  if (!compiled.streams.has(stream)) {
    throw new OaaError<RestErrorCode>(
      `manifest ${compiled.file.name} has no stream "${stream}"; its streams: ${[...compiled.streams.keys()].join(', ')}`,
      { code: REST_ERROR_CODES.MANIFEST_INVALID, details: { stream, streams: [...compiled.streams.keys()] } },
    );
  }
  const parsed = manifestConfigSchema(compiled).safeParse({
    manifest: compiled.file.name,
    vars: options.vars ?? {},
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `vars.${i.path.slice(1).join('.')}: ${i.message}`);
    throw new OaaError<RestErrorCode>(
      `the vars do not fit manifest ${compiled.file.name}: ${problems.join('; ')}`,
      {
        code: REST_ERROR_CODES.MANIFEST_INVALID,
        details: { problems },
        hints: [`declared vars: ${Object.keys(compiled.manifest.vars ?? {}).join(', ') || 'none'}`],
      },
    );
  }
  const silent: ConnectorLogger = { debug() {}, info() {}, warn() {}, error() {} };
  const run = new ManifestRun(compiled, {
    http: options.http,
    secrets: options.secrets ?? {},
    vars: parsed.data.vars,
    signal: options.signal ?? new AbortController().signal,
    logger: options.logger ?? silent,
    progress: { start() {}, tick() {} },
  });
  const limit = options.records ?? 20;
  const sources = [...compiled.payload.kinds.values()].flat();
  const mine = sources.filter((s) => s.stream === stream);
  const table = compiled.payload.permissionTypes;
  const unmapped = new Set<string>();
  const result: TryResult = {
    manifest: compiled.file.name,
    stream,
    pages: [],
    requests: 0,
    read: 0,
    records: [],
    otherStreams: [
      ...new Set(sources.map((s) => s.stream).filter((s): s is string => s !== undefined && s !== stream)),
    ],
    unmappedPermissions: [],
  };
  for await (const page of run.streams.pages(stream, {
    pageLimit: options.pages ?? 1,
    parentLimit: 1,
    keepAnswers: true,
  })) {
    if (page.answer !== undefined)
      result.pages.push({
        url: shownUrl(page.answer.url) + page.answer.url.search,
        status: page.answer.status,
        records: page.records.length,
      });
    for (const record of page.records) {
      result.read += 1;
      if (result.records.length >= limit) continue;
      const tried: TriedRecord = {
        record,
        ...(page.partition === undefined ? {} : { partition: page.partition }),
        ...(page.parent === undefined ? {} : { parent: page.parent }),
        mappings: [],
      };
      const bindings = { ...run.bindings, record, partition: page.partition, parent: page.parent };
      for (const source of mine) {
        const path = formatPath(source.path);
        try {
          const value = await source.map.evaluate(
            record,
            bindings,
            () => `mapping a record of stream ${stream}`,
          );
          const entities =
            value === undefined || value === null
              ? []
              : Array.isArray(value)
                ? (value as unknown[]).flat()
                : [value];
          const made = entities
            .filter((e) => e !== undefined && e !== null)
            .map((e) => (typeof e === 'string' ? { name: e } : (e as Record<string, unknown>)));
          if (source.kind === 'permissions')
            for (const p of made)
              if (p['permission_type'] === undefined) {
                const name = textOf(p['name']);
                const types = Object.hasOwn(table, name) ? table[name] : undefined;
                if (types === undefined) unmapped.add(name);
                else p['permission_type'] = types;
              }
          tried.mappings.push({ kind: source.kind, path, entities: made });
        } catch (error) {
          if (!isOaaError(error)) throw error;
          tried.mappings.push({ kind: source.kind, path, error: message(error) });
        }
      }
      result.records.push(tried);
    }
  }
  result.requests = run.requester.requests;
  result.unmappedPermissions = [...unmapped].sort();
  return result;
}

/** The text `oaa manifest try` prints. */
export function formatTryResult(result: TryResult): string {
  const lines: string[] = [];
  const pages = result.pages.length;
  lines.push(
    `stream ${result.stream} of ${result.manifest}: ${pages} page${pages === 1 ? '' : 's'}, ${result.read} record${result.read === 1 ? '' : 's'}, ${result.requests} request${result.requests === 1 ? '' : 's'} in all`,
  );
  for (const p of result.pages) lines.push(`  GET ${p.url} -> ${p.status} (${p.records} records)`);
  const indent = (text: string, by: string): string =>
    text
      .split('\n')
      .map((l) => `${by}${l}`)
      .join('\n');
  result.records.forEach((r, i) => {
    lines.push('');
    const context = [
      r.partition === undefined ? undefined : `partition ${JSON.stringify(r.partition)}`,
      r.parent === undefined ? undefined : `for ${JSON.stringify(r.parent).slice(0, 80)}`,
    ].filter((x) => x !== undefined);
    lines.push(`record ${i + 1}${context.length > 0 ? ` (${context.join(', ')})` : ''}:`);
    lines.push(indent(JSON.stringify(r.record, null, 2), '  '));
    if (r.mappings.length === 0) lines.push('  no mapping reads this stream');
    for (const m of r.mappings) {
      if (m.error !== undefined) {
        lines.push(`  => ${m.path}: ERROR ${m.error}`);
        continue;
      }
      const n = m.entities?.length ?? 0;
      lines.push(`  => ${m.path}: ${n === 0 ? 'nothing' : n === 1 ? '1 entity' : `${n} entities`}`);
      for (const e of m.entities ?? []) lines.push(indent(JSON.stringify(e, null, 2), '     '));
    }
  });
  if (result.read > result.records.length)
    lines.push('', `(${result.read - result.records.length} more records not shown)`);
  if (result.unmappedPermissions.length > 0)
    lines.push(
      '',
      `permission names not in payload.permission_types: ${result.unmappedPermissions.join(', ')}`,
    );
  if (result.otherStreams.length > 0)
    lines.push('', `other streams with mappings: ${result.otherStreams.join(', ')} (try them with --stream)`);
  return `${lines.join('\n')}\n`;
}
