/**
 * One run of a manifest: the payload its streams and mappings make. Every entity collection is an
 * async iterable read when the runner reads the payload: records are mapped one page at a time, so
 * memory holds a page (with `for_each`, a page per concurrent request) plus what the manifest asks
 * to keep: indexes, `cache: true` streams, the resources and, with `merge_grants`, the grants.
 */
import {
  isRfc3339,
  OaaError,
  orderGroups,
  type ConnectorLogger,
  type ProgressReporter,
  type SourceHttp,
} from '@oaakit/core';
import { REST_ERROR_CODES, type RestErrorCode } from '../errors.js';
import type { CompiledEntitySource, CompiledManifest } from '../manifest/compile.js';
import { formatPath } from '../manifest/source-map.js';
import { LATER, textOf, type Bindings } from './expressions.js';
import { Requester } from './requester.js';
import { StreamReader, type Page } from './streams.js';

/** What a run needs of the connector context. */
export interface RunContext {
  http: SourceHttp;
  secrets: Readonly<Record<string, string>>;
  /** The vars, defaults applied. */
  vars: Record<string, unknown>;
  signal: AbortSignal;
  logger: ConnectorLogger;
  progress: ProgressReporter;
}

type Entity = Record<string, unknown>;

/** The payload field of each entity kind the manifest names. */
const FIELD: Record<string, string> = { grants: 'identity_to_permissions' };

/** An entity's key: `id`, else `unique_id`, else `identity`, else `name`, compared without case. */
function keyOf(entity: Entity): string | undefined {
  for (const field of ['id', 'unique_id', 'identity', 'name']) {
    const v = entity[field];
    if (typeof v === 'string' && v !== '') return v.toLowerCase();
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A resource made by the resources mapping, where it sits in the tree. */
interface ResourceNode {
  resource: Entity;
  key: string;
  parentKey?: string | undefined;
  parent?: ResourceNode | undefined;
}

interface ResourceTree {
  top: Entity[];
  /** Key (as written) -> reference path. */
  paths: Map<string, string>;
}

export class ManifestRun {
  readonly requester: Requester;
  readonly streams: StreamReader;
  readonly bindings: Bindings;
  private readonly indexes = new Map<string, Promise<Map<string, unknown[]>>>();
  private readonly built = new Map<string, Map<string, unknown[]>>();
  private tree: Promise<ResourceTree> | undefined;

  constructor(
    readonly manifest: CompiledManifest,
    private readonly ctx: RunContext,
  ) {
    this.bindings = {
      vars: ctx.vars,
      index: (name: unknown, key: unknown) => this.index(name, key),
      timestamp: (value: unknown) => timestamp(value),
      resource: (key: unknown) => this.resourcePath(key),
      distinctNames: (list: unknown) => distinctNames(list),
      text: (value: unknown) => text(value),
      bool: (value: unknown) => bool(value),
    };
    this.requester = new Requester(manifest, { ...ctx }, this.bindings);
    this.streams = new StreamReader(
      manifest,
      this.requester,
      this.bindings,
      ctx.vars,
      ctx.signal,
      ctx.progress,
    );
  }

  /** `$index(name, key)`: the values the index keeps for `key`, a list; nothing when there are none. */
  index(name: unknown, key: unknown): unknown[] | undefined | Promise<unknown[] | undefined> {
    const ready = this.built.get(String(name));
    if (ready !== undefined) return this.lookup(String(name), ready, key);
    return this.buildIndex(String(name)).then((table) => this.lookup(String(name), table, key));
  }

  private lookup(name: string, table: Map<string, unknown[]>, key: unknown): unknown[] | undefined {
    if (key === undefined || key === null) return undefined;
    const text = textOf(key);
    return table.get(this.manifest.indexes.get(name)?.ignoreCase === true ? text.toLowerCase() : text);
  }

  private buildIndex(name: string): Promise<Map<string, unknown[]>> {
    let pending = this.indexes.get(name);
    if (pending !== undefined) return pending;
    const spec = this.manifest.indexes.get(name);
    if (spec === undefined)
      return Promise.reject(new Error(`$index: no index named ${JSON.stringify(name)}`));
    pending = (async () => {
      const table = new Map<string, unknown[]>();
      for await (const page of this.streams.pages(spec.stream)) {
        const bindings = this.pageBindings(page);
        for (const record of page.records) {
          bindings['record'] = record;
          const what = () => `indexing a record of stream ${spec.stream}`;
          // Each expression is evaluated without awaiting where it can be (most records).
          let keys = spec.key.listNow(record, bindings);
          if (keys === LATER) keys = await spec.key.list(record, bindings, what);
          if (keys.length === 0) continue;
          // One value for the record, unless the value expression reads $key: then one per key.
          const perKey = spec.value?.refs.keyed === true;
          let value: unknown = record;
          if (spec.value !== undefined && !perKey) {
            value = spec.value.oneNow(record, bindings);
            if (value === LATER) value = await spec.value.one(record, bindings, what);
          }
          for (const k of keys) {
            if (k === undefined || k === null) continue;
            let v = value;
            if (perKey) {
              bindings['key'] = k;
              v = spec.value!.oneNow(record, bindings);
              if (v === LATER) v = await spec.value!.one(record, bindings, what);
            }
            if (v === undefined) continue;
            const text = textOf(k);
            const stored = spec.ignoreCase ? text.toLowerCase() : text;
            const list = table.get(stored);
            if (list === undefined) table.set(stored, [v]);
            else list.push(v);
          }
        }
      }
      this.built.set(name, table);
      return table;
    })();
    this.indexes.set(name, pending);
    return pending;
  }

  private pageBindings(page: Page): Bindings {
    return { ...this.bindings, record: undefined, partition: page.partition, parent: page.parent };
  }

  /** The entities a source's mapping makes of one value (a record, or `{}` without a stream). */
  private async mapped(source: CompiledEntitySource, record: unknown, bindings: Bindings): Promise<Entity[]> {
    const value = await source.map.evaluate(
      record,
      bindings,
      () => `mapping a record of stream ${source.stream ?? '(none)'}`,
    );
    return this.entitiesOf(source, value, record);
  }

  private entitiesOf(source: CompiledEntitySource, value: unknown, record: unknown): Entity[] {
    if (value === undefined || value === null) return [];
    const list = Array.isArray(value) ? (value as unknown[]).flat() : [value];
    const out: Entity[] = [];
    for (const item of list) {
      if (item === undefined || item === null) continue;
      if (typeof item === 'string') out.push({ name: item });
      else if (typeof item === 'object' && !Array.isArray(item)) out.push(item as Entity);
      else {
        const problem = this.manifest.file.problem(
          [...source.path, 'map'],
          `gave ${describe(item)}, not an entity (an object, or a string as its name), for the record ${describe(record)}`,
        );
        throw new OaaError<RestErrorCode>(
          `${this.manifest.file.name}:${problem.line}:${problem.column}: ${problem.path}: ${problem.message}`,
          {
            code: REST_ERROR_CODES.REST_MAPPING_FAILED,
            details: { manifest: this.manifest.file.name, path: problem.path, line: problem.line },
          },
        );
      }
    }
    return out;
  }

  /** Every entity of the sources of one kind, mapped as the records are read. */
  async *entities(
    kind: string,
    sources: readonly CompiledEntitySource[],
  ): AsyncGenerator<Entity, void, undefined> {
    const seen = sources.some((s) => s.distinct) ? new Set<string>() : undefined;
    for (const source of sources) {
      const admit = (entity: Entity): boolean => {
        if (seen === undefined) return true;
        const key = keyOf(entity);
        if (key === undefined) return true;
        if (seen.has(key)) return !source.distinct;
        seen.add(key);
        return true;
      };
      if (source.stream === undefined) {
        for (const entity of await this.mapped(source, {}, { ...this.bindings }))
          if (admit(entity)) yield entity;
        continue;
      }
      const found = source.warn === undefined ? undefined : { count: 0, sample: [] as unknown[] };
      for await (const page of this.streams.pages(source.stream)) {
        const bindings = this.pageBindings(page);
        for (const record of page.records) {
          bindings['record'] = record;
          const value = source.map.now(record, bindings);
          const entities =
            value === LATER
              ? await this.mapped(source, record, bindings)
              : this.entitiesOf(source, value, record);
          if (found !== undefined) {
            const values = source.warn!.values;
            let list = values.listNow(record, bindings);
            if (list === LATER)
              list = await values.list(record, bindings, () => `the warning of ${source.kind}`);
            found.count += list.length;
            for (const v of list) if (found.sample.length < 5) found.sample.push(v);
          }
          for (const entity of entities) if (admit(entity)) yield entity;
        }
      }
      if (found !== undefined && found.count > 0)
        this.ctx.logger.warn({ count: found.count, sample: found.sample }, source.warn!.message);
    }
    void kind;
  }

  /** Permissions with their canonical types from the lookup table; unmapped names are one error. */
  private async *permissions(
    sources: readonly CompiledEntitySource[],
  ): AsyncGenerator<Entity, void, undefined> {
    const table = this.manifest.payload.permissionTypes;
    const unmapped = new Set<string>();
    for await (const entity of this.entities('permissions', sources)) {
      if (entity['permission_type'] !== undefined) {
        yield entity;
        continue;
      }
      const name = textOf(entity['name']);
      const types = Object.hasOwn(table, name) ? table[name] : undefined;
      if (types === undefined) {
        unmapped.add(name);
        continue;
      }
      yield { ...entity, permission_type: [...types] };
    }
    if (unmapped.size > 0) {
      const names = [...unmapped].sort();
      const problem = this.manifest.file.problem(['payload', 'permission_types'], '');
      throw new OaaError<RestErrorCode>(
        `${names.length} permission name${names.length === 1 ? '' : 's'} the source uses ${names.length === 1 ? 'is' : 'are'} not in payload.permission_types (${this.manifest.file.name}:${problem.line}): ${names.join(', ')}`,
        {
          code: REST_ERROR_CODES.PERMISSIONS_UNMAPPED,
          details: { manifest: this.manifest.file.name, unmapped: names },
          hints: [
            `map each to canonical types in payload.permission_types, e.g. ${JSON.stringify(names[0])}: [DataRead]`,
          ],
        },
      );
    }
  }

  /** The resources, nested by their `parent` keys when the manifest gives them. */
  private resources(): Promise<ResourceTree> {
    return (this.tree ??= (async () => {
      const sources = this.manifest.payload.kinds.get('resources') ?? [];
      const nodes: ResourceNode[] = [];
      const byKey = new Map<string, ResourceNode>();
      const seen = sources.some((s) => s.distinct) ? new Set<string>() : undefined;
      for (const source of sources) {
        const add = async (record: unknown, bindings: Bindings): Promise<void> => {
          const parentKey =
            source.parent === undefined
              ? undefined
              : await source.parent.one(record, bindings, () => 'the parent of a resource');
          for (const resource of await this.mapped(source, record, bindings)) {
            const key = textOf(resource['id'] ?? resource['name']);
            if (seen !== undefined) {
              if (seen.has(key.toLowerCase()) && source.distinct) continue;
              seen.add(key.toLowerCase());
            }
            const node: ResourceNode = {
              resource,
              key,
              parentKey: parentKey === undefined || parentKey === null ? undefined : textOf(parentKey),
            };
            nodes.push(node);
            if (!byKey.has(key)) byKey.set(key, node);
          }
        };
        if (source.stream === undefined) await add({}, { ...this.bindings });
        else
          for await (const page of this.streams.pages(source.stream)) {
            const bindings = this.pageBindings(page);
            for (const record of page.records) {
              bindings['record'] = record;
              await add(record, bindings);
            }
          }
      }
      const top: Entity[] = [];
      const orphans: string[] = [];
      for (const node of nodes) {
        const parent = node.parentKey === undefined ? undefined : byKey.get(node.parentKey);
        if (parent === undefined || parent === node) {
          if (node.parentKey !== undefined) orphans.push(node.key);
          top.push(node.resource);
          continue;
        }
        node.parent = parent;
        const subs = (parent.resource['sub_resources'] ??= []) as Entity[];
        subs.push(node.resource);
      }
      if (orphans.length > 0)
        this.ctx.logger.warn(
          { count: orphans.length, sample: orphans.slice(0, 5) },
          'resources whose parent was not read were put at the top level',
        );
      const paths = new Map<string, string>();
      for (const node of nodes) {
        const steps: string[] = [];
        const trail = new Set<ResourceNode>();
        for (let at: ResourceNode | undefined = node; at !== undefined; at = at.parent) {
          if (trail.has(at)) {
            throw new OaaError<RestErrorCode>(
              `resources nest in a cycle: ${[...trail].map((n) => n.key).join(' -> ')} -> ${at.key}`,
              {
                code: REST_ERROR_CODES.RESOURCE_TREE_INVALID,
                details: { keys: [...trail].map((n) => n.key) },
                hints: [
                  `check payload.resources parent: it should give the key (id, else name) of the parent resource`,
                ],
              },
            );
          }
          trail.add(at);
          steps.unshift(at.key);
        }
        if (!paths.has(node.key)) paths.set(node.key, steps.join('.'));
      }
      return { top, paths };
    })());
  }

  private async *resourceList(): AsyncGenerator<Entity, void, undefined> {
    yield* (await this.resources()).top;
  }

  /** `$resource(key)`: the reference path of the resource with that key (`parent.child`). */
  private resourcePath(key: unknown): Promise<string | undefined> {
    if (key === undefined || key === null) return Promise.resolve(undefined);
    return this.resources().then((tree) => tree.paths.get(textOf(key)));
  }

  /** Grants merged by identity (`merge_grants`), in the order the identities first came. */
  private async *mergedGrants(
    sources: readonly CompiledEntitySource[],
  ): AsyncGenerator<Entity, void, undefined> {
    const merged = new Map<string, Entity>();
    for await (const grant of this.entities('grants', sources)) {
      const key = `${textOf(grant['identity_type'])}\u0000${textOf(grant['identity']).toLowerCase()}`;
      const found = merged.get(key);
      if (found === undefined) {
        merged.set(key, {
          ...grant,
          role_assignments: [...((grant['role_assignments'] as unknown[] | undefined) ?? [])],
          application_permissions: [...((grant['application_permissions'] as unknown[] | undefined) ?? [])],
        });
        continue;
      }
      (found['role_assignments'] as unknown[]).push(
        ...((grant['role_assignments'] as unknown[] | undefined) ?? []),
      );
      (found['application_permissions'] as unknown[]).push(
        ...((grant['application_permissions'] as unknown[] | undefined) ?? []),
      );
    }
    for (const grant of merged.values()) {
      for (const list of ['role_assignments', 'application_permissions'])
        if ((grant[list] as unknown[]).length === 0) delete grant[list];
      yield grant;
    }
  }

  /**
   * Groups whose `groups` (the groups they are members of) close no cycle. A source may nest groups
   * in a cycle (SCIM does not forbid it), which no payload may hold: each membership that would
   * close one is left out and reported, as a depth-first walk from each group in the order read
   * meets it. References are matched as the service matches them: by key, unique_id or name,
   * without regard to case.
   */
  private async *acyclicGroups(
    kind: string,
    sources: readonly CompiledEntitySource[],
  ): AsyncGenerator<Entity, void, undefined> {
    const list: Entity[] = [];
    for await (const group of this.entities(kind, sources)) list.push(group);
    const index = new Map<string, number>();
    const name = (v: unknown): string | undefined =>
      typeof v === 'string' && v !== '' ? v.toLowerCase() : typeof v === 'number' ? String(v) : undefined;
    list.forEach((g, i) => {
      const k = keyOf(g);
      if (k !== undefined && !index.has(k)) index.set(k, i);
    });
    list.forEach((g, i) => {
      for (const field of ['unique_id', 'name']) {
        const k = name(g[field]);
        if (k !== undefined && !index.has(k)) index.set(k, i);
      }
    });
    // Each group's parents, as indexes into the list, in the order its `groups` names them.
    const parents = new Map<string, Set<string>>();
    const refsOf = (g: Entity): unknown[] => (Array.isArray(g['groups']) ? (g['groups'] as unknown[]) : []);
    const target = (ref: unknown): string | undefined => {
      const k = name(ref);
      const at = k === undefined ? undefined : index.get(k);
      return at === undefined ? undefined : String(at);
    };
    list.forEach((g, i) => {
      const found = refsOf(g).flatMap((ref) => target(ref) ?? []);
      if (found.length > 0) parents.set(String(i), new Set(found));
    });
    const { droppedEdges } = orderGroups(
      list.map((_, i) => String(i)),
      parents,
    );
    if (droppedEdges.length > 0) {
      for (const [child, parent] of droppedEdges) {
        const g = list[Number(child)]!;
        g['groups'] = refsOf(g).filter((ref) => target(ref) !== parent);
      }
      this.ctx.logger.warn(
        {
          count: droppedEdges.length,
          sample: droppedEdges
            .slice(0, 5)
            .map(([child, parent]) => [list[Number(child)]!['name'], list[Number(parent)]!['name']]),
        },
        `${kind.replace('_', ' ')} nest in a cycle; the memberships that close it were left out`,
      );
    }
    yield* list;
  }

  /** Whether a kind's entities are groups that may nest (`groups` naming other groups of the kind). */
  private nests(kind: string): boolean {
    return (
      kind === 'local_groups' || (kind === 'groups' && this.manifest.payload.template === 'identity_provider')
    );
  }

  /** A collection read anew each time it is iterated. */
  private collection(make: () => AsyncGenerator<Entity, void, undefined>): AsyncIterable<Entity> {
    return { [Symbol.asyncIterator]: make };
  }

  /** The collection of one entity kind. */
  private kind(kind: string): AsyncIterable<Entity> | undefined {
    const sources = this.manifest.payload.kinds.get(kind);
    if (sources === undefined) return undefined;
    if (kind === 'permissions') return this.collection(() => this.permissions(sources));
    if (kind === 'grants' && this.manifest.payload.mergeGrants)
      return this.collection(() => this.mergedGrants(sources));
    if (kind === 'resources') return this.collection(() => this.resourceList());
    if (this.nests(kind)) return this.collection(() => this.acyclicGroups(kind, sources));
    return this.collection(() => this.entities(kind, sources));
  }

  /** The payload: its own fields evaluated now, its entity collections read when the runner reads them. */
  async payload(): Promise<Record<string, unknown>> {
    const p = this.manifest.payload;
    const header = await p.header.evaluate({}, { ...this.bindings }, () => `the ${p.template} header`);
    if (typeof header !== 'object' || header === null || Array.isArray(header)) {
      throw p.header.failure(
        new Error(`gave ${describe(header)}, not an object of the payload's fields`),
        `payload.${p.template}`,
      );
    }
    const collections: Record<string, AsyncIterable<Entity>> = {};
    for (const kind of p.kinds.keys()) {
      const c = this.kind(kind);
      if (c !== undefined) collections[FIELD[kind] ?? kind] = c;
    }
    const props = p.properties as Record<string, Record<string, string> | undefined>;
    if (p.template === 'application') {
      const app: Record<string, unknown> = { ...(header as Entity) };
      const top: Record<string, unknown> = {};
      for (const [field, c] of Object.entries(collections)) {
        if (field === 'permissions' || field === 'identity_to_permissions') top[field] = c;
        else app[field] = c;
      }
      const payload: Record<string, unknown> = { applications: [app], ...top };
      const definition = applicationProperties(textOf(app['application_type']), props);
      if (definition !== undefined) payload['custom_property_definition'] = definition;
      return payload;
    }
    const payload: Record<string, unknown> = { ...(header as Entity), ...collections };
    const suffixed = Object.fromEntries(
      Object.entries(props)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [`${k}_properties`, v]),
    );
    if (Object.keys(suffixed).length > 0) payload['custom_property_definition'] = suffixed;
    return payload;
  }

  /** Reads the first page of the check stream: the URL, the credentials and the answer's shape. */
  async check(): Promise<void> {
    const name = this.manifest.checkStream;
    for await (const page of this.streams.pages(name, { pageLimit: 1, parentLimit: 1 })) {
      void page;
      return;
    }
  }
}

/** The custom property definitions of an application payload, as the builders write them. */
function applicationProperties(
  applicationType: string,
  props: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const entry: Record<string, unknown> = { application_type: applicationType };
  for (const kind of [
    'application',
    'local_user',
    'local_group',
    'local_role',
    'local_access_creds',
    'role_assignment',
  ]) {
    const defs = props[kind];
    if (defs !== undefined) entry[`${kind}_properties`] = defs;
  }
  const resources = props['resources'] as Record<string, Record<string, string>> | undefined;
  if (resources !== undefined)
    entry['resources'] = Object.entries(resources).map(([resource_type, properties]) => ({
      resource_type,
      properties,
    }));
  return Object.keys(entry).length > 1 ? { applications: [entry] } : undefined;
}

/** `$timestamp(value)`: an RFC 3339 timestamp as it is, another date text made one, else nothing. */
export function timestamp(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (isRfc3339(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** `$text(value)`: a string that is not blank as it is, a number as text; anything else is nothing. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** `$bool(value)`: true or false, also written as text in any case ("true", "False"); else nothing. */
export function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  return undefined;
}

/** `$distinctNames(list)`: the strings of a list without repeats compared without case, the first spelling kept. */
export function distinctNames(list: unknown): string[] | undefined {
  if (list === undefined || list === null) return undefined;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of Array.isArray(list) ? (list as unknown[]) : [list]) {
    if (typeof v !== 'string') continue;
    const key = v.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

export { formatPath };
