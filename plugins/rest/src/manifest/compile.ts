/**
 * A checked manifest compiled for running: every template and JSONata expression compiled, and
 * what the schema alone cannot see checked, each problem at its path and line: names that point
 * nowhere (a stream, an index, a secret, a var), `for_each` or `$index` in a cycle, `record` in a
 * stream that has no `for_each`, a cursor that says neither where it is nor which header.
 */
import { Expression, Template } from '../engine/expressions.js';
import type { ManifestFile, ManifestPath, ManifestProblem } from './source-map.js';
import {
  ENTITY_KINDS,
  type AuthSpec,
  type EntitySourceSpec,
  type Manifest,
  type Pagination,
  type PayloadSpec,
  type StreamSpec,
} from './schema.js';

export type CompiledAuth =
  | { type: 'none' }
  | { type: 'bearer'; secret: string }
  | { type: 'basic'; username: Template; secret: string }
  | { type: 'header'; name: string; secret: string }
  | { type: 'query'; name: string; secret: string }
  | {
      type: 'oauth2_client_credentials';
      tokenUrl: Template;
      clientId: Template;
      secret: string;
      scopes: string[];
      clientAuth: 'basic' | 'body';
      params: [string, Template][];
    };

export interface CompiledSource {
  baseUrl: Template;
  headers: [string, Template][];
  auth: CompiledAuth;
  requestsPerSecond?: number | undefined;
  /** A number, or a template evaluated once over the vars when the first request is made. */
  maxConcurrency?: number | Template | undefined;
  timeoutMs?: number | undefined;
  retries?: number | undefined;
}

export type CompiledPagination =
  | { type: 'none' }
  | {
      type: 'offset';
      offsetParam: string;
      limitParam: string;
      limit: Template;
      start: number;
      total?: Expression | undefined;
    }
  | {
      type: 'page';
      pageParam: string;
      sizeParam?: string | undefined;
      size?: Template | undefined;
      start: number;
      totalPages?: Expression | undefined;
    }
  | { type: 'cursor'; next?: Expression | undefined; header?: string | undefined; param?: string | undefined }
  | { type: 'link' };

/** A JSON body whose strings are templates. */
export type BodyTemplate =
  Template | number | boolean | null | BodyTemplate[] | { [key: string]: BodyTemplate };

export interface CompiledStream {
  name: string;
  path: Template;
  method: 'GET' | 'POST';
  params: [string, Template][];
  headers: [string, Template][];
  body?: BodyTemplate | undefined;
  partitions?: Record<string, unknown>[] | undefined;
  forEach?: string | undefined;
  concurrency: number;
  pagination: CompiledPagination;
  records?: Expression | undefined;
  drop: string[][];
  /** Whether field names are read without regard to case (see `CompiledManifest.fieldNames`). */
  ignoreFieldCase: boolean;
  /** Fields added to each record as it is read (after `drop`), in the order written. */
  fields: [string, Expression][];
  cache: boolean;
  maxPages?: number | undefined;
}

export interface CompiledIndex {
  name: string;
  stream: string;
  key: Expression;
  value?: Expression | undefined;
  ignoreCase: boolean;
}

export interface CompiledEntitySource {
  /** The manifest's name of the kind, e.g. `local_users`, `grants`. */
  kind: string;
  path: ManifestPath;
  stream?: string | undefined;
  map: Expression;
  distinct: boolean;
  parent?: Expression | undefined;
  /** A finding reported once for the source: the values each record gives, and the message. */
  warn?: { values: Expression; message: string } | undefined;
}

export interface CompiledPayload {
  template: PayloadSpec['template'];
  header: Expression;
  properties: Record<string, unknown>;
  permissionTypes: Record<string, string[]>;
  mergeGrants: boolean;
  kinds: Map<string, CompiledEntitySource[]>;
}

/** A manifest ready to run. */
export interface CompiledManifest {
  file: ManifestFile;
  manifest: Manifest;
  source: CompiledSource;
  streams: Map<string, CompiledStream>;
  indexes: Map<string, CompiledIndex>;
  payload: CompiledPayload;
  /** The stream `oaa run --check` reads the first page of. */
  checkStream: string;
  /**
   * Every field name the manifest reads (in expressions, `drop` and `fields`), by its lower case:
   * a stream with `ignore_field_case` renames a record's fields to these spellings.
   */
  fieldNames: Map<string, string>;
}

/** The header of each template, as the manifest names it. */
const HEADER: Record<PayloadSpec['template'], string> = {
  application: 'application',
  identity_provider: 'identity_provider',
  hris: 'hris',
};

/** Finds the cycles of a graph given as node -> neighbours; each cycle once. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'active');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'active') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (state.get(node) === undefined) visit(node);
  return found;
}

class Compiler {
  readonly problems: ManifestProblem[] = [];
  private readonly varNames: Set<string>;
  private readonly secretNames: Set<string>;
  private readonly streamNames: Set<string>;
  private readonly indexNames: Set<string>;
  /** Every compiled expression, with what its templates may see, for the reference checks. */
  private readonly all: { expression: Expression; scope: Scope }[] = [];

  constructor(
    private readonly file: ManifestFile,
    private readonly m: Manifest,
  ) {
    this.varNames = new Set(Object.keys(m.vars ?? {}));
    this.secretNames = new Set(Object.keys(m.secrets ?? {}));
    this.streamNames = new Set(Object.keys(m.streams));
    this.indexNames = new Set(Object.keys(m.indexes ?? {}));
  }

  private problem(
    path: ManifestPath,
    message: string,
    options: { key?: boolean; offset?: number } = {},
  ): void {
    this.problems.push(this.file.problem(path, message, options));
  }

  private expression(path: ManifestPath, source: string, scope: Scope): Expression | undefined {
    const e = Expression.compile(source, { file: this.file, path, offset: 0 }, this.problems);
    if (e !== undefined) this.all.push({ expression: e, scope });
    return e;
  }

  private template(path: ManifestPath, source: string, scope: Scope): Template | undefined {
    const t = Template.compile(source, { file: this.file, path }, this.problems);
    if (t !== undefined)
      for (const e of t.expressions) this.all.push({ expression: e, scope: { ...scope, template: true } });
    return t;
  }

  /** A parameter value: a template, or a number or boolean as it is. */
  private param(path: ManifestPath, value: string | number | boolean, scope: Scope): Template | undefined {
    return typeof value === 'string'
      ? this.template(path, value, scope)
      : Template.literal(String(value), { file: this.file, path });
  }

  private params(
    path: ManifestPath,
    values: Record<string, string | number | boolean> | undefined,
    scope: Scope,
  ): [string, Template][] {
    const out: [string, Template][] = [];
    for (const [name, value] of Object.entries(values ?? {})) {
      const t = this.param([...path, name], value, scope);
      if (t !== undefined) out.push([name, t]);
    }
    return out;
  }

  private secret(path: ManifestPath, name: string): void {
    if (!this.secretNames.has(name)) {
      const declared = [...this.secretNames];
      this.problem(
        path,
        `names the secret "${name}", which secrets does not declare; ${declared.length > 0 ? `declared: ${declared.join(', ')}` : 'declare it under secrets'}`,
      );
    }
  }

  private streamRef(path: ManifestPath, name: string | undefined): void {
    if (name !== undefined && !this.streamNames.has(name))
      this.problem(
        path,
        `names the stream "${name}", which streams does not declare; declared: ${[...this.streamNames].join(', ')}`,
      );
  }

  private auth(path: ManifestPath, auth: AuthSpec): CompiledAuth {
    const scope: Scope = {};
    switch (auth.type) {
      case 'none':
        return auth;
      case 'bearer':
      case 'header':
      case 'query':
        this.secret([...path, 'secret'], auth.secret);
        return auth;
      case 'basic': {
        this.secret([...path, 'secret'], auth.secret);
        const username = this.template([...path, 'username'], auth.username, scope);
        return {
          type: 'basic',
          username: username ?? Template.literal('', { file: this.file, path }),
          secret: auth.secret,
        };
      }
      case 'oauth2_client_credentials': {
        this.secret([...path, 'secret'], auth.secret);
        const tokenUrl = this.template([...path, 'token_url'], auth.token_url, scope);
        const clientId = this.template([...path, 'client_id'], auth.client_id, scope);
        const empty = Template.literal('', { file: this.file, path });
        return {
          type: 'oauth2_client_credentials',
          tokenUrl: tokenUrl ?? empty,
          clientId: clientId ?? empty,
          secret: auth.secret,
          scopes: auth.scopes ?? [],
          clientAuth: auth.client_auth,
          params: this.params([...path, 'params'], auth.params, scope),
        };
      }
    }
  }

  source(): CompiledSource {
    const s = this.m.source;
    const empty = Template.literal('', { file: this.file, path: ['source', 'base_url'] });
    return {
      baseUrl: this.template(['source', 'base_url'], s.base_url, {}) ?? empty,
      headers: this.params(['source', 'headers'], s.headers, {}),
      auth: this.auth(['source', 'auth'], s.auth),
      requestsPerSecond: s.rate_limit?.requests_per_second,
      maxConcurrency:
        typeof s.rate_limit?.max_concurrency === 'string'
          ? this.template(['source', 'rate_limit', 'max_concurrency'], s.rate_limit.max_concurrency, {})
          : s.rate_limit?.max_concurrency,
      timeoutMs: s.timeout_ms,
      retries: s.retries,
    };
  }

  private pagination(path: ManifestPath, p: Pagination, scope: Scope): CompiledPagination {
    const size = (at: ManifestPath, value: number | string | undefined): Template | undefined =>
      value === undefined ? undefined : this.param(at, value, scope);
    switch (p.type) {
      case 'none':
      case 'link':
        return p;
      case 'offset':
        return {
          type: 'offset',
          offsetParam: p.offset_param,
          limitParam: p.limit_param,
          limit: size([...path, 'limit'], p.limit) ?? Template.literal('1', { file: this.file, path }),
          start: p.start,
          total: p.total === undefined ? undefined : this.expression([...path, 'total'], p.total, {}),
        };
      case 'page':
        return {
          type: 'page',
          pageParam: p.page_param,
          sizeParam: p.size_param,
          size: size([...path, 'size'], p.size),
          start: p.start,
          totalPages:
            p.total_pages === undefined
              ? undefined
              : this.expression([...path, 'total_pages'], p.total_pages, {}),
        };
      case 'cursor':
        if ((p.next === undefined) === (p.header === undefined))
          this.problem(
            path,
            'a cursor is read from the body (next) or from a header (header): give exactly one',
          );
        return {
          type: 'cursor',
          next: p.next === undefined ? undefined : this.expression([...path, 'next'], p.next, {}),
          header: p.header,
          param: p.param,
        };
    }
  }

  private body(path: ManifestPath, value: unknown, scope: Scope): BodyTemplate {
    if (typeof value === 'string')
      return this.template(path, value, scope) ?? Template.literal(value, { file: this.file, path });
    if (Array.isArray(value)) return value.map((v, i) => this.body([...path, i], v, scope));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, this.body([...path, k], v, scope)]),
      );
    return value as number | boolean | null;
  }

  stream(name: string, spec: StreamSpec): CompiledStream {
    const path = ['streams', name];
    this.streamRef([...path, 'for_each'], spec.for_each);
    if (spec.for_each === undefined && spec.concurrency > 1)
      this.problem(
        [...path, 'concurrency'],
        'concurrency applies to a stream with for_each; this one has none',
      );
    const scope: Scope = {
      record: spec.for_each !== undefined,
      partition: spec.partitions !== undefined,
      stream: name,
    };
    const empty = Template.literal('', { file: this.file, path });
    return {
      name,
      path: this.template([...path, 'path'], spec.path, scope) ?? empty,
      method: spec.method,
      params: this.params([...path, 'params'], spec.params, scope),
      headers: this.params([...path, 'headers'], spec.headers, scope),
      body: spec.body === undefined ? undefined : this.body([...path, 'body'], spec.body, scope),
      partitions: spec.partitions,
      forEach: spec.for_each,
      concurrency: spec.concurrency,
      pagination: this.pagination([...path, 'pagination'], spec.pagination, scope),
      records:
        spec.records === undefined ? undefined : this.expression([...path, 'records'], spec.records, {}),
      drop: (spec.drop ?? []).map((d) => d.split('.')),
      ignoreFieldCase: spec.ignore_field_case,
      fields: Object.entries(spec.fields ?? {}).flatMap(([field, source]) => {
        const e = this.expression([...path, 'fields', field], source, { mapping: true });
        return e === undefined ? [] : [[field, e] as [string, Expression]];
      }),
      cache: spec.cache,
      maxPages: spec.max_pages,
    };
  }

  streams(): Map<string, CompiledStream> {
    const out = new Map<string, CompiledStream>();
    for (const [name, spec] of Object.entries(this.m.streams)) out.set(name, this.stream(name, spec));
    const graph = new Map([...out.values()].map((s) => [s.name, s.forEach === undefined ? [] : [s.forEach]]));
    for (const cycle of cycles(graph))
      this.problem(
        ['streams', cycle[0]!, 'for_each'],
        `for_each streams read each other in a cycle: ${cycle.join(' -> ')}`,
      );
    return out;
  }

  indexes(): Map<string, CompiledIndex> {
    const out = new Map<string, CompiledIndex>();
    for (const [name, spec] of Object.entries(this.m.indexes ?? {})) {
      const path = ['indexes', name];
      this.streamRef([...path, 'stream'], spec.stream);
      const key = this.expression([...path, 'key'], spec.key, { mapping: true });
      const value =
        spec.value === undefined
          ? undefined
          : this.expression([...path, 'value'], spec.value, { mapping: true });
      if (key !== undefined)
        out.set(name, { name, stream: spec.stream, key, value, ignoreCase: spec.ignore_case });
    }
    const graph = new Map(
      [...out.values()].map((i) => [
        i.name,
        [...i.key.refs.indexes, ...(i.value?.refs.indexes ?? [])].map((r) => r.name),
      ]),
    );
    for (const cycle of cycles(graph))
      this.problem(
        ['indexes', cycle[0]!],
        `indexes are built from each other in a cycle: ${cycle.join(' -> ')}`,
        { key: true },
      );
    return out;
  }

  payload(): CompiledPayload {
    const p = this.m.payload;
    const header = this.expression(
      ['payload', HEADER[p.template]],
      (p as unknown as Record<string, string>)[HEADER[p.template]]!,
      {
        mapping: true,
      },
    );
    const kinds = new Map<string, CompiledEntitySource[]>();
    for (const kind of ENTITY_KINDS[p.template]) {
      const written = (p as Record<string, unknown>)[kind] as
        EntitySourceSpec | EntitySourceSpec[] | undefined;
      if (written === undefined) continue;
      const list = Array.isArray(written) ? written : [written];
      const sources: CompiledEntitySource[] = [];
      list.forEach((spec, i) => {
        const path: ManifestPath = Array.isArray(written) ? ['payload', kind, i] : ['payload', kind];
        this.streamRef([...path, 'stream'], spec.stream);
        const scope: Scope = { mapping: true };
        const map = this.expression([...path, 'map'], spec.map, scope);
        const parent =
          spec.parent === undefined ? undefined : this.expression([...path, 'parent'], spec.parent, scope);
        const warnValues =
          spec.warn === undefined
            ? undefined
            : this.expression([...path, 'warn', 'values'], spec.warn.values, scope);
        const warn =
          spec.warn === undefined || warnValues === undefined
            ? undefined
            : { values: warnValues, message: spec.warn.message };
        if (map !== undefined)
          sources.push({ kind, path, stream: spec.stream, map, distinct: spec.distinct, parent, warn });
      });
      kinds.set(kind, sources);
    }
    const properties = p.properties ?? {};
    return {
      template: p.template,
      header: header ?? Expression.compile('{}', { file: this.file, path: ['payload'], offset: 0 }, [])!,
      properties,
      permissionTypes: p.template === 'application' ? (p.permission_types ?? {}) : {},
      mergeGrants: p.template === 'application' ? p.merge_grants : false,
      kinds,
    };
  }

  /** The reference checks every expression gets: indexes and vars it names, record and partition. */
  references(): void {
    for (const { expression, scope } of this.all) {
      const { site, refs } = expression;
      for (const ref of refs.indexes) {
        if (!this.indexNames.has(ref.name)) {
          const declared = [...this.indexNames];
          this.problem(
            site.path,
            `$index names the index "${ref.name}", which indexes does not declare${declared.length > 0 ? `; declared: ${declared.join(', ')}` : ''}`,
            { offset: site.offset + ref.offset },
          );
        }
      }
      for (const ref of refs.vars) {
        if (!this.varNames.has(ref.name)) {
          const declared = [...this.varNames];
          this.problem(
            site.path,
            `names the var "${ref.name}", which vars does not declare${declared.length > 0 ? `; declared: ${declared.join(', ')}` : ''}`,
            { offset: site.offset + ref.offset },
          );
        }
      }
      if (scope.template === true) {
        const uses = templateUses(expression);
        if (uses.has('record') && scope.record !== true)
          this.problem(
            site.path,
            scope.stream === undefined
              ? 'record is only known in the templates of a stream with for_each'
              : `record is only known in the templates of a stream with for_each; stream "${scope.stream}" has none`,
            { offset: site.offset },
          );
        if (uses.has('partition') && scope.partition !== true)
          this.problem(
            site.path,
            scope.stream === undefined
              ? 'partition is only known in the templates of a stream with partitions'
              : `partition is only known in the templates of a stream with partitions; stream "${scope.stream}" has none`,
            { offset: site.offset },
          );
      }
    }
  }

  vars(): void {
    for (const [name, spec] of Object.entries(this.m.vars ?? {})) {
      if (spec.default === undefined) continue;
      const problem = typeProblem(spec.type, spec.default);
      if (problem !== undefined) this.problem(['vars', name, 'default'], problem);
    }
  }

  /** Every field name the manifest reads, by its lower case (the first spelling met). */
  fieldNames(streams: Map<string, CompiledStream>): Map<string, string> {
    const out = new Map<string, string>();
    const add = (name: string): void => {
      const lower = name.toLowerCase();
      if (!out.has(lower)) out.set(lower, name);
    };
    for (const { expression } of this.all) for (const name of expression.refs.names) add(name);
    for (const stream of streams.values()) {
      for (const path of stream.drop) path.forEach(add);
      for (const [field] of stream.fields) add(field);
    }
    return out;
  }

  checkStream(streams: Map<string, CompiledStream>): string {
    const asked = this.m.check?.stream;
    if (asked !== undefined) {
      this.streamRef(['check', 'stream'], asked);
      return asked;
    }
    const first = [...streams.values()].find((s) => s.forEach === undefined) ?? [...streams.values()][0];
    return first?.name ?? '';
  }
}

/** What a template expression reads of its input: `record`, `partition` (or `$record`...). */
function templateUses(expression: Expression): Set<string> {
  return new Set(['record', 'partition'].filter((name) => expression.refs.heads.has(name)));
}

/** What is wrong with `value` as a var of `type`, if anything. */
export function typeProblem(type: string, value: unknown): string | undefined {
  const ok =
    (type === 'string' && typeof value === 'string') ||
    (type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (type === 'integer' && Number.isInteger(value)) ||
    (type === 'boolean' && typeof value === 'boolean') ||
    (type === 'list' && Array.isArray(value)) ||
    (type === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value));
  return ok
    ? undefined
    : `must be ${type === 'integer' ? 'an integer' : `a ${type}`}, not ${JSON.stringify(value)}`;
}

/** What the templates of a place may read. */
interface Scope {
  template?: boolean;
  mapping?: boolean;
  record?: boolean;
  partition?: boolean;
  stream?: string;
}

/** Compiles a manifest the schema accepted; `problems` is empty when it may run. */
export function compileManifest(
  file: ManifestFile,
  manifest: Manifest,
): { compiled: CompiledManifest; problems: ManifestProblem[] } {
  const c = new Compiler(file, manifest);
  c.vars();
  const source = c.source();
  const streams = c.streams();
  const indexes = c.indexes();
  const payload = c.payload();
  const checkStream = c.checkStream(streams);
  c.references();
  const fieldNames = c.fieldNames(streams);
  return {
    compiled: { file, manifest, source, streams, indexes, payload, checkStream, fieldNames },
    problems: c.problems,
  };
}
