#!/usr/bin/env node
/**
 * The node query benchmark: `npm run bench:query -- --users N [--db FILE]`.
 * Starts an emulator in this process with a database file, pushes bench-app-N through the client
 * (skipped when `--db` names a file that already holds it), restarts the emulator on the file, then
 * times the first page of a few node queries through the client over HTTP: cold (the first time after
 * start-up) and warm (median of 3).
 * Prints one JSON line.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@oaakit/client';
import type { NodeQueryRequest } from '@oaakit/core';
import { startEmulator } from '@oaakit/emulator';
import { buildBenchApp } from './bench-app.js';
import { pushToService } from './push-service.js';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, db: { type: 'string' } },
});
const n = Number(values.users);
if (!Number.isSafeInteger(n) || n < 1)
  throw new Error(`--users must be a positive whole number, got ${values.users}`);

const users = (specs: unknown[]) => ({
  nodes: [{ node_type: 'OAA.bench.User', condition_expression: { specs } }],
});
const dept7 = [
  { fn: 'EQ', property: 'customprop_department', value: 'dept7' },
  { fn: 'EQ', property: 'is_active', value: true },
];
const repos = { nodes: [{ node_type: 'OAA.bench.repo.Resource' }] };

const QUERIES: Record<string, NodeQueryRequest> = {
  users_by_department: { source_node_types: users(dept7) } as NodeQueryRequest,
  users_to_repos_with_datawrite: {
    query_type: 'SOURCE_TO_DESTINATION',
    source_node_types: users(dept7),
    destination_node_types: repos,
    canonical_permissions: { values: ['DataWrite'] },
  } as NodeQueryRequest,
  users_to_application: {
    source_node_types: users([{ fn: 'STARTS_WITH', property: 'name', value: 'user9' }]),
    destination_node_types: { nodes: [{ node_type: 'OAA.bench.Application' }] },
  } as NodeQueryRequest,
  users_without_datawrite_on_repos: {
    source_node_types: users([]),
    destination_node_types: repos,
    canonical_permissions: { values: ['DataWrite'] },
    no_relation: true,
  } as NodeQueryRequest,
  repos_reached_by_users: {
    query_type: 'DESTINATION_NODES',
    source_node_types: users([]),
    destination_node_types: repos,
  } as NodeQueryRequest,
};

const ms = (start: bigint) => Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10;

async function main() {
  const dir = values.db ? undefined : await mkdtemp(join(tmpdir(), 'oaa-query-'));
  const dbPath = values.db ?? join(dir!, 'emulator.db');
  const reuse = values.db !== undefined && existsSync(dbPath);
  const key = `oaa_bench_${randomBytes(12).toString('hex')}`;
  let emulator = await startEmulator({ port: 0, dbPath, apiKeys: [{ key, role: 'admin' }] });
  try {
    let push_s: number | 'reused' = 'reused';
    if (!reuse) {
      const started = process.hrtime.bigint();
      await pushToService(emulator.url, key, buildBenchApp(n, 'streamed'), false);
      push_s = Math.round(ms(started)) / 1000;
      // Queries go to a fresh emulator on the same file, as one started on an existing graph: the
      // ingest's garbage does not weigh on the figures.
      await emulator.close();
      emulator = await startEmulator({ port: 0, dbPath, apiKeys: [{ key, role: 'admin' }] });
    }
    const client = createClient({ url: emulator.url, apiKey: key, timeoutMs: 600_000 });
    const firstPage = async (q: NodeQueryRequest) => {
      const started = process.hrtime.bigint();
      for await (const page of client.graph.queryNodes(q, { pageSize: 100 }).pages())
        return { ms: ms(started), values: page.values?.length ?? 0, has_more: page.has_more === true };
      throw new Error('no page');
    };
    const queries: Record<string, unknown> = {};
    for (const [name, q] of Object.entries(QUERIES)) {
      const cold = await firstPage(q);
      const warm: number[] = [];
      for (let i = 0; i < 3; i++) warm.push((await firstPage(q)).ms);
      warm.sort((a, b) => a - b);
      queries[name] = {
        cold_ms: cold.ms,
        warm_median_ms: warm[1],
        values: cold.values,
        has_more: cold.has_more,
      };
    }
    const result = {
      n,
      db: values.db ? dbPath : 'temporary file',
      push_s,
      page_size: 100,
      queries,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      node: process.version,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await emulator.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`query bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
