#!/usr/bin/env node
/**
 * The PostgreSQL connector benchmark:
 * `npm run bench:postgres -- [--tables 100000] [--schemas 20] [--roles 2000] [--grants-per-table 5]`.
 *
 * Starts a throwaway PostgreSQL server (`@oaakit/plugin-postgres/testing`), generates a cluster in it
 * (tables spread over the schemas; roles of which every tenth is a NOLOGIN group that the nine before
 * it are members of; each table granted SELECT to `--grants-per-table` roles), then runs the built
 * `oaa run` twice as a child process into the counting sink, with the plugin's directory as the
 * connector and a read-only LOGIN role. The first run extracts and pushes everything; the second,
 * with nothing changed, must push nothing. Prints one JSON line: the generation time, each run's
 * wall time, status and peak RSS, the payload's bytes, and what the sink received.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTemplate, startPgServer, type PgServer } from '@oaakit/plugin-postgres/testing';
import { oaaRunChild } from './oaa-run-child.js';
import { startCountingSink } from './sink.js';

const { values } = parseArgs({
  options: {
    tables: { type: 'string', default: '100000' },
    schemas: { type: 'string', default: '20' },
    roles: { type: 'string', default: '2000' },
    'grants-per-table': { type: 'string', default: '5' },
  },
});

function positive(name: keyof typeof values): number {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${name} must be a positive whole number, got ${values[name]}`);
  return n;
}
const tables = positive('tables');
const schemas = positive('schemas');
const roles = positive('roles');
const grantsPerTable = positive('grants-per-table');
if (roles < 10) throw new Error('--roles must be at least 10 (every tenth role is a group)');
if (grantsPerTable > roles) throw new Error('--grants-per-table must not exceed --roles');

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const pluginDir = join(repo, 'plugins/postgres');
const seconds = (ms: number) => Math.round(ms) / 1000;

/** The generated cluster, in one database, committed every 1,000 tables. */
async function generate(server: PgServer): Promise<void> {
  const c = await server.connectAsSuperuser();
  try {
    await c.query(`DO $$ BEGIN
      FOR i IN 1..${roles} LOOP
        EXECUTE format('CREATE ROLE r%s %s', i, CASE WHEN i % 10 = 0 THEN 'NOLOGIN' ELSE 'LOGIN' END);
      END LOOP;
      FOR i IN 1..${roles} LOOP
        IF i % 10 <> 0 AND (i / 10 + 1) * 10 <= ${roles} THEN
          EXECUTE format('GRANT r%s TO r%s', (i / 10 + 1) * 10, i);
        END IF;
      END LOOP;
      FOR s IN 1..${schemas} LOOP EXECUTE format('CREATE SCHEMA s%s', s); END LOOP;
    END $$`);
    // Table t is granted to roles t, t + stride, t + 2 * stride, ... (modulo the role count): the
    // grantees are distinct, so the grant count is exact, and every role is a grantee somewhere.
    const stride = Math.floor(roles / grantsPerTable);
    await c.query(`DO $$ DECLARE grantees text; BEGIN
      FOR t IN 1..${tables} LOOP
        EXECUTE format('CREATE TABLE s%s.t%s (id int, v text)', t % ${schemas} + 1, t);
        SELECT string_agg('r' || ((t + k * ${stride}) % ${roles} + 1), ', ') INTO grantees
          FROM generate_series(0, ${grantsPerTable - 1}) AS k;
        EXECUTE format('GRANT SELECT ON s%s.t%s TO %s', t % ${schemas} + 1, t, grantees);
        IF t % 1000 = 0 THEN COMMIT; END IF;
      END LOOP;
    END $$`);
    await c.query(`CREATE ROLE bench_reader LOGIN PASSWORD 'bench-reader-password'`);
  } finally {
    await c.end();
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-bench-postgres-'));
  const template = await createTemplate();
  let server: PgServer | undefined;
  const sink = await startCountingSink();
  try {
    server = await startPgServer(template);
    process.stderr.write(
      `generating ${tables} tables, ${roles} roles, ${tables * grantsPerTable} grants...\n`,
    );
    const t = performance.now();
    await generate(server);
    const generateS = seconds(performance.now() - t);

    const config = join(dir, 'oaa.config.json');
    const connector = {
      id: 'postgres',
      plugin: pluginDir,
      provider: 'PostgreSQL',
      dataSource: 'bench',
      config: {
        host: server.host,
        port: server.port,
        user: 'bench_reader',
        databases: ['postgres'],
        ssl: 'disable',
      },
      secrets: { password: 'env:BENCH_PG_PASSWORD' },
    };
    await writeFile(
      config,
      JSON.stringify({ target: { url: sink.url }, stateDir: 'state', connectors: [connector] }),
    );

    process.stderr.write('first run (extract and push)...\n');
    const first = await oaaRunChild(dir, config, { BENCH_PG_PASSWORD: 'bench-reader-password' });
    const pushesAfterFirst = sink.pushes();
    process.stderr.write('second run (nothing changed)...\n');
    const second = await oaaRunChild(dir, config, { BENCH_PG_PASSWORD: 'bench-reader-password' });
    const pushesBySecond = sink.pushes() - pushesAfterFirst;
    const line = {
      tables,
      schemas,
      roles,
      grants: tables * grantsPerTable,
      generate_s: generateS,
      run_total_s: first.wallS,
      run_status: first.result.status,
      run_peak_rss_mb: first.peakRssMb,
      json_bytes: first.result.bytes?.json,
      gzip_bytes: first.result.bytes?.compressed,
      push_mode: first.result.push?.mode,
      sink_pushes: pushesAfterFirst,
      rerun_total_s: second.wallS,
      rerun_status: second.result.status,
      rerun_peak_rss_mb: second.peakRssMb,
      rerun_sink_pushes: pushesBySecond,
      node: process.version,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    if (first.result.status !== 'pushed')
      throw new Error(`the first run did not push: ${first.result.status}`);
    if (pushesBySecond !== 0) throw new Error(`the unchanged re-run pushed ${pushesBySecond} time(s)`);
  } finally {
    await sink.close();
    await server?.stop();
    await template.remove();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:postgres failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
