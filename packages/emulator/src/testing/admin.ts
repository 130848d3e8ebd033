/**
 * A client of the emulator's test controls under `/_emulator/` (keys, faults, the clock, the call
 * log, graph and event views). The real service has no such API, so this lives in the test kit and
 * speaks plain `fetch`: the emulator sits below `@oaakit/client` and may not import it.
 */
import type { ApiKeyRecord, Role } from '../auth/api-keys.js';
import type { CallRecord } from '../calls.js';
import type { Fault, FaultSpec } from '../faults.js';
import type { GraphEdgeView, GraphNodeView, GraphStats } from '../graph/read-graph.js';
import type { EventRecord } from '../store/events.js';
import type { ConsoleUser, OAuthApp, OAuthAppCreate, UserCreate } from '@oaakit/core';

/** A fault to inject: `method` and `path` default to `*`, `count` to 1. */
export type FaultInput = Partial<Pick<FaultSpec, 'method' | 'path' | 'count'>> &
  Omit<FaultSpec, 'method' | 'path' | 'count'>;

/** The emulator's clock. */
export interface ClockState {
  now: string;
  frozen: boolean;
}

/** Which part of a data source's graph to read; `limit` defaults to all (100 000). */
export interface GraphRead {
  dataSourceId: string;
  limit?: number;
  offset?: number;
}

/** The emulator's test controls. Requests are sent once, without retries; a non-2xx answer throws. */
export interface EmulatorAdmin {
  apiKeys: {
    /** Creates a key; the answer is the only time the key itself is shown. */
    create(input?: { role?: Role; name?: string }): Promise<{ key: string; record: ApiKeyRecord }>;
    list(): Promise<ApiKeyRecord[]>;
    /** Revokes a key (it stops working until reinstated). */
    revoke(id: string): Promise<void>;
    reinstate(id: string): Promise<void>;
    /** Deletes a key for good. */
    delete(id: string): Promise<void>;
  };
  faults: {
    add(spec: FaultInput): Promise<Fault>;
    list(): Promise<Fault[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
  };
  clock: {
    get(): Promise<ClockState>;
    /** Jumps to a time (RFC 3339), optionally freezing or unfreezing the clock. */
    set(input: { time?: string; frozen?: boolean }): Promise<ClockState>;
    advance(ms: number): Promise<ClockState>;
  };
  calls: {
    /** Recorded calls, oldest first, optionally only those of one method and exact path. */
    list(filter?: { method?: string; path?: string }): Promise<CallRecord[]>;
    /** Push calls (`:push`, and `:parts` of multipart uploads) the emulator answered. */
    pushes(): Promise<CallRecord[]>;
    clear(): Promise<void>;
  };
  graph: {
    stats(dataSourceId: string): Promise<GraphStats>;
    nodes(input: GraphRead & { type?: string }): Promise<GraphNodeView[]>;
    edges(input: GraphRead & { kind?: string }): Promise<GraphEdgeView[]>;
  };
  /** Stored platform events. */
  events(input?: { eventType?: string; limit?: number }): Promise<EventRecord[]>;
  /** Console users (who sign in and consent to OAuth2 apps). */
  users: {
    create(input: UserCreate): Promise<ConsoleUser>;
    list(): Promise<ConsoleUser[]>;
    /** By sub or email. */
    delete(user: string): Promise<void>;
  };
  /** OAuth2 apps; a client secret is answered only when created. */
  oauthApps: {
    create(input: OAuthAppCreate): Promise<OAuthApp & { secret_id: string; client_secret: string }>;
    list(): Promise<OAuthApp[]>;
    get(clientId: string): Promise<OAuthApp>;
    addSecret(clientId: string): Promise<{ secret_id: string; client_secret: string }>;
    deleteSecret(clientId: string, secretId: string): Promise<void>;
    revoke(clientId: string): Promise<OAuthApp>;
    reinstate(clientId: string): Promise<OAuthApp>;
    delete(clientId: string): Promise<void>;
  };
  /** Headless consent: `/oauth/authorize` answers at once as `user`; `null` turns it off. */
  autoConsent(input: { user?: string; decision: 'allow' | 'cancel' | null }): Promise<void>;
}

type Query = Record<string, string | number | undefined>;

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A client of the emulator's test controls.
 *
 * @example
 * const admin = createEmulatorAdmin({ url: emulator.url, adminKey: emulator.adminKey });
 * await admin.faults.add({ method: 'POST', path: '*:push', status: 503, count: 2 });
 */
export function createEmulatorAdmin(options: { url: string; adminKey: string }): EmulatorAdmin {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(options.url + path, {
      method,
      headers: {
        authorization: `Bearer ${options.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path.split('?')[0]}: HTTP ${res.status} ${text}`);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
  const values = async <T>(path: string, query: Query = {}): Promise<T[]> =>
    (await call<{ values: T[] }>('GET', path + queryString(query))).values;
  const value = async <T>(path: string, body: unknown): Promise<T> =>
    (await call<{ value: T }>('POST', path, body)).value;
  const calls = async (filter: { method?: string; path?: string } = {}): Promise<CallRecord[]> =>
    (await values<CallRecord>('/_emulator/calls')).filter(
      (c) =>
        (filter.method === undefined || c.method === filter.method) &&
        (filter.path === undefined || c.path === filter.path),
    );
  const id = (s: string): string => encodeURIComponent(s);
  return {
    apiKeys: {
      create: async (input = {}) => {
        const { key, ...record } = await value<ApiKeyRecord & { key: string }>('/_emulator/api_keys', input);
        return { key, record };
      },
      list: () => values('/_emulator/api_keys'),
      revoke: async (keyId) => void (await call('POST', `/_emulator/api_keys/${id(keyId)}/revoke`, {})),
      reinstate: async (keyId) => void (await call('POST', `/_emulator/api_keys/${id(keyId)}/reinstate`, {})),
      delete: async (keyId) => void (await call('DELETE', `/_emulator/api_keys/${id(keyId)}`)),
    },
    faults: {
      add: (spec) => value('/_emulator/faults', spec),
      list: () => values('/_emulator/faults'),
      remove: async (faultId) => void (await call('DELETE', `/_emulator/faults/${id(faultId)}`)),
      clear: async () => void (await call('DELETE', '/_emulator/faults')),
    },
    clock: {
      get: () => call('GET', '/_emulator/clock'),
      set: ({ time, frozen }) => call('POST', '/_emulator/clock', { set: time, frozen }),
      advance: (ms) => call('POST', '/_emulator/clock', { advance_ms: ms }),
    },
    calls: {
      list: calls,
      pushes: async () => (await calls({ method: 'POST' })).filter((c) => /:(push|parts)$/.test(c.path)),
      clear: async () => void (await call('DELETE', '/_emulator/calls')),
    },
    graph: {
      stats: (dataSourceId) =>
        call('GET', `/_emulator/graph/stats${queryString({ data_source_id: dataSourceId })}`),
      nodes: ({ dataSourceId, type, limit = 100_000, offset }) =>
        values('/_emulator/graph/nodes', { data_source_id: dataSourceId, type, limit, offset }),
      edges: ({ dataSourceId, kind, limit = 100_000, offset }) =>
        values('/_emulator/graph/edges', { data_source_id: dataSourceId, kind, limit, offset }),
    },
    events: ({ eventType, limit } = {}) => values('/_emulator/events', { event_type: eventType, limit }),
    users: {
      create: (input) => value('/_emulator/users', input),
      list: () => values('/_emulator/users'),
      delete: async (user) => void (await call('DELETE', `/_emulator/users/${id(user)}`)),
    },
    oauthApps: {
      create: (input) => value('/_emulator/oauth_apps', input),
      list: () => values('/_emulator/oauth_apps'),
      get: async (clientId) =>
        (await call<{ value: OAuthApp }>('GET', `/_emulator/oauth_apps/${id(clientId)}`)).value,
      addSecret: (clientId) => value(`/_emulator/oauth_apps/${id(clientId)}/secrets`, {}),
      deleteSecret: async (clientId, secretId) =>
        void (await call('DELETE', `/_emulator/oauth_apps/${id(clientId)}/secrets/${id(secretId)}`)),
      revoke: (clientId) => value(`/_emulator/oauth_apps/${id(clientId)}:revoke`, {}),
      reinstate: (clientId) => value(`/_emulator/oauth_apps/${id(clientId)}:reinstate`, {}),
      delete: async (clientId) => void (await call('DELETE', `/_emulator/oauth_apps/${id(clientId)}`)),
    },
    autoConsent: async (input) => void (await call('POST', '/_emulator/oauth/auto_consent', input)),
  };
}
