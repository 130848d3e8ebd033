/**
 * One emulator per end-to-end test file, on port 0 with a seeded admin key, plus the read-outs a
 * user checks after `oaa run`: the graph of a data source and the push calls the emulator answered.
 */
import { randomBytes } from 'node:crypto';
import { createEmulatorAdmin } from '@oaakit/client';
import type { EmulatorAdmin, EmulatorGraphNode } from '@oaakit/client';
import { startEmulator } from '@oaakit/emulator';
import type { GraphEdgeView } from '@oaakit/emulator';

/** A running emulator and its read-outs; `close()` it after the file. */
export interface TestEmulator {
  url: string;
  apiKey: string;
  admin: EmulatorAdmin;
  /** `OAA_URL` and `OAA_API_KEY` for the child process. */
  env: Record<string, string>;
  /** Nodes of a data source's current graph, optionally of one type. */
  nodes(dataSourceId: string, type?: string): Promise<EmulatorGraphNode[]>;
  /** Edges of a data source's current graph, optionally of one kind. */
  edges(dataSourceId: string, kind?: string): Promise<GraphEdgeView[]>;
  /** How many pushes (single, or multipart calls) the emulator answered so far. */
  pushCalls(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the emulator, in memory, with a fresh admin key. */
export async function startTestEmulator(): Promise<TestEmulator> {
  const apiKey = `oaa_e2e_${randomBytes(16).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  const admin = createEmulatorAdmin({ url: emulator.url, adminKey: apiKey });
  // The admin client has no edge view yet: read `/_emulator/graph/edges` directly.
  const edges = async (dataSourceId: string, kind?: string): Promise<GraphEdgeView[]> => {
    const query = new URLSearchParams({ data_source_id: dataSourceId, limit: '100000' });
    if (kind !== undefined) query.set('kind', kind);
    const res = await fetch(`${emulator.url}/_emulator/graph/edges?${query.toString()}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    if (!res.ok) throw new Error(`GET /_emulator/graph/edges: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { values: GraphEdgeView[] }).values;
  };
  return {
    url: emulator.url,
    apiKey,
    admin,
    env: { OAA_URL: emulator.url, OAA_API_KEY: apiKey },
    nodes: (dataSourceId, type) =>
      admin.graph.nodes({ dataSourceId, limit: 100_000, ...(type === undefined ? {} : { type }) }),
    edges,
    pushCalls: async () => {
      const calls = await admin.calls.list({ method: 'POST' });
      return calls.filter((c) => c.path.endsWith(':push') || c.path.includes(':parts')).length;
    },
    close: () => emulator.close(),
  };
}
