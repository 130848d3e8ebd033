import { createApi } from './api.js';
import { buildQuery, pathSegment } from './filter.js';
import { silentLogger } from './logger.js';
import { createSend } from './request.js';
import type { HttpRequest } from './request.js';
import { resolveRetry } from './retry.js';

/** Roles of emulator API keys. */
export type EmulatorRole = 'admin' | 'system_monitoring' | 'member';

/** An emulator API key as listed (never the key itself). */
export interface EmulatorApiKey {
  id: string;
  name: string;
  role: EmulatorRole;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** A fault to inject, in the emulator's field names. The next `count` matching calls are hit. */
export interface EmulatorFaultSpec {
  /** HTTP method, or `*` (default). */
  method?: string;
  /** Path pattern, `*` matching any run of characters (default `*`); the query is ignored. */
  path?: string;
  /** Default 1. */
  count?: number;
  /** Answer with this status (and `code`, derived from the status when absent). */
  status?: number;
  /** Service error code, e.g. `Unavailable`, `ResourceExhaused`. */
  code?: string;
  message?: string;
  /** Seconds for a `Retry-After` header. */
  retry_after_s?: number;
  /** Delay before the call is handled. */
  latency_ms?: number;
  /** Destroy the connection without an answer. */
  drop?: boolean;
}

/** A registered fault. */
export interface EmulatorFault extends EmulatorFaultSpec {
  id: string;
  remaining: number;
}

/** One call the emulator answered (or dropped: `status` null). */
export interface EmulatorCall {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: string;
  status: number | null;
  request_id: string;
}

/** Node and edge counts of a data source's current submission. */
export interface EmulatorGraphStats {
  /** Node type (e.g. `OAA.Wiki.User`) to count. */
  nodes: Record<string, number>;
  edges: Record<string, number>;
  identity_links: number;
}

/** A graph node as the emulator's debug view shows it. */
export interface EmulatorGraphNode {
  id: string;
  type: string;
  name: string | null;
  parent_id: string | null;
  properties: Record<string, unknown>;
  tags: { key: string; value: string }[];
}

/** The emulator's clock. */
export interface EmulatorClockState {
  now: string;
  frozen: boolean;
}

/**
 * The emulator's test controls under `/_emulator/` (not part of the real service): API keys,
 * fault injection, the clock and the call log. Requests are sent once, without retries.
 */
export interface EmulatorAdmin {
  apiKeys: {
    /** Creates a key; the answer is the only time the key itself is shown. */
    create(input?: {
      role?: EmulatorRole;
      name?: string;
      key?: string;
    }): Promise<{ key: string; record: EmulatorApiKey }>;
    list(): Promise<EmulatorApiKey[]>;
    revoke(id: string): Promise<void>;
  };
  faults: {
    add(spec: EmulatorFaultSpec): Promise<EmulatorFault>;
    list(): Promise<EmulatorFault[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
  };
  clock: {
    get(): Promise<EmulatorClockState>;
    /** Jumps to a time (RFC 3339), optionally freezing or unfreezing the clock. */
    set(input: { time?: string; frozen?: boolean }): Promise<EmulatorClockState>;
    advance(ms: number): Promise<EmulatorClockState>;
  };
  calls: {
    /** Recorded calls, oldest first, optionally only those of one method and exact path. */
    list(filter?: { method?: string; path?: string }): Promise<EmulatorCall[]>;
    clear(): Promise<void>;
  };
  /** Read-only views of the graph store (until the node query API exists). */
  graph: {
    stats(dataSourceId: string): Promise<EmulatorGraphStats>;
    nodes(input: {
      dataSourceId: string;
      type?: string;
      limit?: number;
      offset?: number;
    }): Promise<EmulatorGraphNode[]>;
  };
  /** Stored platform events, newest handling as the emulator orders them. */
  events(input?: { eventType?: string; limit?: number }): Promise<Record<string, unknown>[]>;
}

/**
 * A client of the emulator's test controls.
 *
 * @example
 * const admin = createEmulatorAdmin({ url: emulator.url, adminKey: emulator.adminKey });
 * await admin.faults.add({ method: 'POST', path: '*:push', status: 503, count: 2 });
 */
export function createEmulatorAdmin(options: {
  url: string;
  adminKey: string;
  fetch?: typeof globalThis.fetch;
}): EmulatorAdmin {
  const send = createSend({
    url: options.url,
    apiKey: options.adminKey,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: 30_000,
    userAgent: 'oaakit-emulator-admin',
    logger: silentLogger,
  });
  const api = createApi(send, resolveRetry(false), silentLogger);
  const values = async <T>(path: string, query?: string): Promise<T[]> =>
    (await api.call<{ values?: T[] }>({ method: 'GET', path, ...(query ? { query } : {}) }, 'never'))
      .values ?? [];
  const value = async <T>(request: HttpRequest): Promise<T> =>
    (await api.call<{ value: T }>(request, 'never')).value;
  return {
    apiKeys: {
      create: async (input = {}) => {
        const { key, ...record } = await value<EmulatorApiKey & { key: string }>({
          method: 'POST',
          path: '/_emulator/api_keys',
          body: input,
        });
        return { key, record };
      },
      list: () => values('/_emulator/api_keys'),
      revoke: async (id) => {
        await api.call({ method: 'DELETE', path: `/_emulator/api_keys/${pathSegment(id)}` }, 'never');
      },
    },
    faults: {
      add: (spec) => value({ method: 'POST', path: '/_emulator/faults', body: spec }),
      list: () => values('/_emulator/faults'),
      remove: async (id) => {
        await api.call({ method: 'DELETE', path: `/_emulator/faults/${pathSegment(id)}` }, 'never');
      },
      clear: async () => {
        await api.call({ method: 'DELETE', path: '/_emulator/faults' }, 'never');
      },
    },
    clock: {
      get: () => api.call({ method: 'GET', path: '/_emulator/clock' }, 'never'),
      set: ({ time, frozen }) =>
        api.call({ method: 'POST', path: '/_emulator/clock', body: { set: time, frozen } }, 'never'),
      advance: (ms) =>
        api.call({ method: 'POST', path: '/_emulator/clock', body: { advance_ms: ms } }, 'never'),
    },
    calls: {
      list: async (filter = {}) =>
        (await values<EmulatorCall>('/_emulator/calls')).filter(
          (c) =>
            (filter.method === undefined || c.method === filter.method) &&
            (filter.path === undefined || c.path === filter.path),
        ),
      clear: async () => {
        await api.call({ method: 'DELETE', path: '/_emulator/calls' }, 'never');
      },
    },
    graph: {
      stats: (dataSourceId) =>
        api.call(
          {
            method: 'GET',
            path: '/_emulator/graph/stats',
            query: buildQuery({ data_source_id: dataSourceId }),
          },
          'never',
        ),
      nodes: (input) =>
        values(
          '/_emulator/graph/nodes',
          buildQuery({
            data_source_id: input.dataSourceId,
            type: input.type,
            limit: input.limit,
            offset: input.offset,
          }),
        ),
    },
    events: (input = {}) =>
      values('/_emulator/events', buildQuery({ event_type: input.eventType, limit: input.limit })),
  };
}
