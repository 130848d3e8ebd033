/**
 * Reading a stream: its requests page by page as its pagination says, once per partition and, with
 * `for_each`, once per record of the parent stream (bounded and in order, see `orderedFanOut`).
 * Pages are read when asked for: a stream is an async iterable, and only a `cache: true` stream is
 * kept after it was read.
 */
import { OaaError, type ProgressReporter } from '@oaakit/core';
import { REST_ERROR_CODES, type RestErrorCode } from '../errors.js';
import type { BodyTemplate, CompiledManifest, CompiledStream } from '../manifest/compile.js';
import {
  asList,
  LATER,
  positiveWhole,
  Template,
  textOf,
  type Bindings,
  type TemplateInput,
} from './expressions.js';
import { orderedFanOut } from './fan-out.js';
import { joinUrl, shownUrl, type Answer, type Requester } from './requester.js';

/** Records of one answer, with what they were read for. */
export interface Page {
  stream: string;
  records: unknown[];
  /** The parameter set of `partitions` the records were read with. */
  partition?: Record<string, unknown> | undefined;
  /** The record of the `for_each` stream the records were read for. */
  parent?: unknown;
  /** The answer, for `oaa manifest try`; not kept by cached streams. */
  answer?: Answer;
}

/** The link-values of a `Link` header (RFC 8288 section 3): each target and its parameters. */
function parseLinks(header: string): { target: string; params: Map<string, string> }[] {
  const out: { target: string; params: Map<string, string> }[] = [];
  let i = 0;
  const n = header.length;
  while (i < n) {
    const open = header.indexOf('<', i);
    if (open < 0) break;
    const close = header.indexOf('>', open);
    if (close < 0) break;
    const link = { target: header.slice(open + 1, close), params: new Map<string, string>() };
    i = close + 1;
    // Parameters up to the comma that ends this link-value (commas in quoted values do not).
    while (i < n) {
      while (i < n && (header[i] === ' ' || header[i] === '\t')) i++;
      if (header[i] === ',') {
        i++;
        break;
      }
      if (header[i] !== ';') {
        i++;
        continue;
      }
      i++;
      let name = '';
      while (i < n && !'=;,'.includes(header[i]!)) name += header[i++];
      let value = '';
      if (header[i] === '=') {
        i++;
        while (i < n && header[i] === ' ') i++;
        if (header[i] === '"') {
          i++;
          while (i < n && header[i] !== '"') {
            if (header[i] === '\\') i++;
            value += header[i++] ?? '';
          }
          i++;
        } else {
          while (i < n && !';,'.includes(header[i]!)) value += header[i++];
        }
      }
      const key = name.trim().toLowerCase();
      if (key !== '' && !link.params.has(key)) link.params.set(key, value.trim());
    }
    out.push(link);
  }
  return out;
}

/** The targets of the `Link` header's relation `rel` (RFC 8288), resolved against `base`. */
export function linkTargets(header: string | null, rel: string, base: URL): URL[] {
  if (header === null) return [];
  const out: URL[] = [];
  for (const link of parseLinks(header)) {
    const rels = (link.params.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rels.includes(rel.toLowerCase())) continue;
    try {
      out.push(new URL(link.target, base));
    } catch {
      // A target that is not a URL is no next page.
    }
  }
  return out;
}

function pagingBroken(stream: string, message: string, hint: string): OaaError<RestErrorCode> {
  return new OaaError<RestErrorCode>(`stream ${stream}: ${message}`, {
    code: REST_ERROR_CODES.REST_PAGING_BROKEN,
    details: { stream },
    hints: [hint],
  });
}

function positiveInt(stream: string, what: string, value: unknown): number {
  const n = positiveWhole(value);
  if (n === undefined) {
    throw new OaaError<RestErrorCode>(
      `stream ${stream}: ${what} must be a whole number of at least 1, not ${JSON.stringify(value)}`,
      {
        code: REST_ERROR_CODES.REST_MAPPING_FAILED,
        details: { stream },
      },
    );
  }
  return n;
}

/** A count read from an answer (a total), or undefined when the answer has none. */
function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * Renames, in place and at every depth, each field whose name is one the manifest reads, written
 * in another case, to the manifest's spelling. A field already spelled so is kept, and others of
 * that name in other cases are left as they are (the first met is the one read, as SCIM readers do).
 */
function spellAsManifest(value: unknown, names: ReadonlyMap<string, string>): void {
  if (Array.isArray(value)) {
    for (const item of value) spellAsManifest(item, names);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const spelled = names.get(key.toLowerCase());
    let at = key;
    if (spelled !== undefined && spelled !== key && !Object.prototype.hasOwnProperty.call(object, spelled)) {
      object[spelled] = object[key];
      delete object[key];
      at = spelled;
    }
    const inner = object[at];
    if (typeof inner === 'object' && inner !== null) spellAsManifest(inner, names);
  }
}

function dropFields(record: unknown, paths: readonly string[][]): void {
  for (const path of paths) {
    let at: unknown = record;
    for (let i = 0; i < path.length - 1 && at !== undefined; i++)
      at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[path[i]!] : undefined;
    const targets = Array.isArray(at) ? (at as unknown[]) : [at];
    for (const t of targets)
      if (typeof t === 'object' && t !== null) delete (t as Record<string, unknown>)[path[path.length - 1]!];
  }
}

/** Options of one read of a stream. */
export interface ReadOptions {
  /** Pages read per request chain (per partition and parent record); for `oaa manifest try` and checks. */
  pageLimit?: number;
  /** Parent records read, with for_each; for `oaa manifest try`. */
  parentLimit?: number;
  /** Keep each page's answer (`Page.answer`). */
  keepAnswers?: boolean;
}

export class StreamReader {
  private readonly cached = new Map<string, Promise<Page[]>>();
  private readonly progressStarted = new Set<string>();

  constructor(
    private readonly manifest: CompiledManifest,
    private readonly requester: Requester,
    private readonly bindings: Bindings,
    private readonly vars: Record<string, unknown>,
    private readonly signal: AbortSignal,
    private readonly progress: ProgressReporter,
  ) {}

  private stream(name: string): CompiledStream {
    const s = this.manifest.streams.get(name);
    if (s === undefined) throw new Error(`no stream ${name}`);
    return s;
  }

  /** Every page of the stream, read as they are asked for (a cached stream from memory after its first read). */
  pages(name: string, options: ReadOptions = {}): AsyncIterable<Page> {
    const stream = this.stream(name);
    const limited =
      options.pageLimit !== undefined || options.parentLimit !== undefined || options.keepAnswers === true;
    if (stream.cache && !limited) {
      const cached = (): Promise<Page[]> => {
        let all = this.cached.get(name);
        if (all === undefined) {
          all = (async () => {
            const out: Page[] = [];
            for await (const page of this.read(stream, options)) out.push(page);
            return out;
          })();
          this.cached.set(name, all);
          all.catch(() => this.cached.delete(name));
        }
        return all;
      };
      return {
        async *[Symbol.asyncIterator]() {
          yield* await cached();
        },
      };
    }
    return { [Symbol.asyncIterator]: () => this.read(stream, options) };
  }

  /** Every record of the stream with what it was read for, one at a time. */
  async *records(
    name: string,
    options: ReadOptions = {},
  ): AsyncGenerator<{ record: unknown; page: Page }, void, undefined> {
    for await (const page of this.pages(name, options))
      for (const record of page.records) yield { record, page };
  }

  private async *read(stream: CompiledStream, options: ReadOptions): AsyncGenerator<Page, void, undefined> {
    const partitions = stream.partitions ?? [undefined];
    if (stream.forEach === undefined) {
      for (const partition of partitions)
        yield* this.chain(stream, { vars: this.vars, partition }, undefined, this.signal, options);
      return;
    }
    const parents = this.parentRecords(stream.forEach, options);
    yield* orderedFanOut(
      parents,
      stream.concurrency,
      (parent, signal) => this.partitionsOf(stream, partitions, parent, signal, options),
      this.signal,
    );
  }

  /** The request chains of one parent record, one per partition. */
  private async *partitionsOf(
    stream: CompiledStream,
    partitions: readonly (Record<string, unknown> | undefined)[],
    parent: unknown,
    signal: AbortSignal,
    options: ReadOptions,
  ): AsyncGenerator<Page, void, undefined> {
    for (const partition of partitions)
      yield* this.chain(stream, { vars: this.vars, record: parent, partition }, parent, signal, options);
  }

  private async *parentRecords(name: string, options: ReadOptions): AsyncGenerator<unknown, void, undefined> {
    let n = 0;
    const parentOptions: ReadOptions =
      options.pageLimit === undefined ? {} : { pageLimit: options.pageLimit };
    for await (const page of this.pages(name, parentOptions)) {
      for (const record of page.records) {
        if (options.parentLimit !== undefined && n >= options.parentLimit) return;
        n += 1;
        yield record;
      }
    }
  }

  private async body(value: BodyTemplate, input: TemplateInput, path: string): Promise<unknown> {
    if (value instanceof Template) return value.value(input, this.bindings, () => path);
    if (Array.isArray(value)) return Promise.all(value.map((v, i) => this.body(v, input, `${path}[${i}]`)));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await this.body(v, input, `${path}.${k}`);
      return out;
    }
    return value;
  }

  /** The request chain of one partition (and parent record): pages until the pagination ends. */
  private async *chain(
    stream: CompiledStream,
    input: TemplateInput,
    parent: unknown,
    signal: AbortSignal,
    options: ReadOptions,
  ): AsyncGenerator<Page, void, undefined> {
    const name = stream.name;
    const at = (field: string) => () => `streams.${name}.${field}`;
    const bindings: Bindings = { ...this.bindings, record: input.record, partition: input.partition };
    const path = await stream.path.text(input, bindings, at('path'));
    const params = await this.requester.evaluate(stream.params, input, (n) => `streams.${name}.params.${n}`);
    for (const [k, v] of Object.entries(input.partition ?? {})) {
      const i = params.findIndex(([p]) => p === k);
      const value: [string, string] = [k, textOf(v)];
      if (i >= 0) params[i] = value;
      else params.push(value);
    }
    const headers = Object.fromEntries(
      await this.requester.evaluate(stream.headers, input, (n) => `streams.${name}.headers.${n}`),
    );
    const body =
      stream.body === undefined ? undefined : await this.body(stream.body, input, `streams.${name}.body`);
    const what = `stream ${name}`;
    let pages = 0;
    const fetch = async (url: URL): Promise<Answer> => {
      signal.throwIfAborted();
      pages += 1;
      if (stream.maxPages !== undefined && pages > stream.maxPages)
        throw pagingBroken(
          name,
          `read more than max_pages (${stream.maxPages}) pages`,
          'raise max_pages if the source really has that many, or check the pagination',
        );
      return this.requester.request({ method: stream.method, url, headers, body, signal }, what);
    };
    const page = async (answer: Answer): Promise<Page> => {
      const records =
        stream.records === undefined
          ? asList(answer.body)
          : await stream.records.list(answer.body, bindings, at('records'));
      if (stream.ignoreFieldCase) for (const r of records) spellAsManifest(r, this.manifest.fieldNames);
      if (stream.drop.length > 0) for (const r of records) dropFields(r, stream.drop);
      if (stream.fields.length > 0) {
        // As in a mapping: $record is the record, $parent the for_each record it was read for.
        const own: Bindings = { ...bindings, parent };
        for (const r of records) {
          if (typeof r !== 'object' || r === null || Array.isArray(r)) continue;
          own['record'] = r;
          for (const [field, e] of stream.fields) {
            let v = e.now(r, own);
            if (v === LATER)
              v = await e.evaluate(r, own, () => `adding the field ${field} to a record of stream ${name}`);
            if (v === undefined) delete (r as Record<string, unknown>)[field];
            else (r as Record<string, unknown>)[field] = v;
          }
        }
      }
      if (!this.progressStarted.has(name)) {
        this.progressStarted.add(name);
        this.progress.start(name);
      }
      this.progress.tick(records.length);
      return {
        stream: name,
        records,
        ...(input.partition === undefined ? {} : { partition: input.partition }),
        ...(parent === undefined ? {} : { parent }),
        ...(options.keepAnswers === true ? { answer } : {}),
      };
    };
    const more = (): boolean => options.pageLimit === undefined || pages < options.pageLimit;
    const p = stream.pagination;
    switch (p.type) {
      case 'none': {
        yield await page(await fetch(await this.requester.url(path, params)));
        return;
      }
      case 'offset': {
        const limit = positiveInt(
          name,
          'pagination.limit',
          await p.limit.value(input, bindings, at('pagination.limit')),
        );
        let offset = p.start;
        let read = 0;
        let previous: string | undefined;
        for (;;) {
          const url = await this.requester.url(path, [
            ...params,
            [p.offsetParam, String(offset)],
            [p.limitParam, String(limit)],
          ]);
          const answer = await fetch(url);
          const got = await page(answer);
          if (got.records.length === 0) return;
          if (previous === answer.text)
            throw pagingBroken(
              name,
              `${shownUrl(url)} answered ${p.offsetParam}=${offset} with the same page as the one before: the source seems to ignore ${p.offsetParam}`,
              `check pagination.offset_param, or read everything in one page with a large enough limit`,
            );
          previous = answer.text;
          yield got;
          offset += got.records.length;
          read += got.records.length;
          const total =
            p.total === undefined
              ? undefined
              : count(await p.total.one(answer.body, bindings, at('pagination.total')));
          if (total !== undefined ? read >= total : got.records.length < limit) return;
          if (!more()) return;
        }
      }
      case 'page': {
        const size =
          p.size === undefined
            ? undefined
            : positiveInt(
                name,
                'pagination.size',
                await p.size.value(input, bindings, at('pagination.size')),
              );
        let number = p.start;
        let previous: string | undefined;
        for (;;) {
          const extra: [string, string][] = [[p.pageParam, String(number)]];
          if (p.sizeParam !== undefined && size !== undefined) extra.push([p.sizeParam, String(size)]);
          const url = await this.requester.url(path, [...params, ...extra]);
          const answer = await fetch(url);
          const got = await page(answer);
          if (got.records.length === 0) return;
          if (previous === answer.text)
            throw pagingBroken(
              name,
              `${shownUrl(url)} answered ${p.pageParam}=${number} with the same page as the one before: the source seems to ignore ${p.pageParam}`,
              'check pagination.page_param',
            );
          previous = answer.text;
          yield got;
          const totalPages =
            p.totalPages === undefined
              ? undefined
              : count(await p.totalPages.one(answer.body, bindings, at('pagination.total_pages')));
          if (
            totalPages !== undefined
              ? number - p.start + 1 >= totalPages
              : size !== undefined && got.records.length < size
          )
            return;
          if (!more()) return;
          number += 1;
        }
      }
      case 'cursor': {
        let url = await this.requester.url(path, params);
        const seen = new Set<string>();
        for (;;) {
          const answer = await fetch(url);
          const got = await page(answer);
          if (got.records.length > 0) yield got;
          const next =
            p.header !== undefined
              ? answer.headers.get(p.header)
              : await p.next!.one(answer.body, bindings, at('pagination.next'));
          if (next === undefined || next === null || next === '' || next === false || !more()) return;
          const cursor = textOf(next);
          if (seen.has(cursor))
            throw pagingBroken(
              name,
              `the cursor ${JSON.stringify(cursor.slice(0, 60))} came back again: paging would not end`,
              'check pagination.next (or header): it should point at the next cursor',
            );
          seen.add(cursor);
          url =
            p.param !== undefined
              ? await this.requester.url(path, [...params, [p.param, cursor]])
              : new URL(cursor, answer.url);
        }
      }
      case 'link': {
        let url = await this.requester.url(path, params);
        const seen = new Set<string>([url.href]);
        for (;;) {
          const answer = await fetch(url);
          const got = await page(answer);
          if (got.records.length > 0) yield got;
          const [next] = linkTargets(answer.headers.get('link'), 'next', answer.url);
          if (next === undefined || !more()) return;
          if (seen.has(next.href))
            throw pagingBroken(
              name,
              `the Link header points back at ${shownUrl(next)}, a page already read: paging would not end`,
              'the source\'s rel="next" links loop',
            );
          seen.add(next.href);
          url = next;
        }
      }
    }
  }
}

export { joinUrl };
