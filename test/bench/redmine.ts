#!/usr/bin/env node
/**
 * The Redmine benchmark of the declarative REST connector:
 * `npm run bench:redmine -- [--users 5000] [--projects 200] [--memberships 20000]`.
 *
 * Starts a throwaway Redmine (`@oaakit/plugin-rest/testing`: Debian's Redmine on SQLite, as root)
 * with a generated company written into its database before it starts (users of every status,
 * groups of 20, project trees of ten, memberships), then runs the built `oaa run` twice as a child
 * process into the counting sink, with the REST plugin's directory as the connector and the shipped
 * `redmine` manifest. The first run reads everything through Redmine's REST API and pushes; the
 * second, with nothing changed, must push nothing. The requests Redmine served are counted from its
 * own log (one `Started GET` line each). Prints one JSON line: the run's wall time, status, peak RSS,
 * requests and requests per second, the payload's bytes, and the re-run's.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  redmineBulkCounts,
  redmineBulkSql,
  startRedmine,
  type RedmineServer,
} from '@oaakit/plugin-rest/testing';
import { oaaRunChild } from './oaa-run-child.js';
import { startCountingSink } from './sink.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '5000' },
    projects: { type: 'string', default: '200' },
    memberships: { type: 'string', default: '20000' },
  },
});

function positive(name: keyof typeof values): number {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${name} must be a positive whole number, got ${values[name]}`);
  return n;
}
const shape = {
  users: positive('users'),
  projects: positive('projects'),
  memberships: positive('memberships'),
};

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const pluginDir = join(repo, 'plugins/rest');
const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * Requests Redmine has served so far, and the time it says it spent on them: the `Started ` and
 * `Completed ... in N ms` lines of the instance's logs.
 */
async function served(redmine: RedmineServer): Promise<{ requests: number; busyMs: number }> {
  const dir = join(redmine.dir, 'log');
  let requests = 0;
  let busyMs = 0;
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.log')) continue;
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
      if (/ Started [A-Z]+ "/.test(line)) requests += 1;
      const done = / Completed \d+ .* in (\d+)ms/.exec(line);
      if (done !== null) busyMs += Number(done[1]);
    }
  }
  return { requests, busyMs };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-bench-redmine-'));
  let redmine: RedmineServer | undefined;
  const sink = await startCountingSink();
  try {
    process.stderr.write(
      `starting Redmine with ${shape.users} users, ${shape.projects} projects, ${shape.memberships} memberships...\n`,
    );
    const t = performance.now();
    redmine = await startRedmine({ sql: redmineBulkSql(shape) });
    const startS = seconds(performance.now() - t);

    const config = join(dir, 'oaa.config.json');
    const connector = {
      id: 'redmine',
      plugin: pluginDir,
      provider: 'Redmine',
      dataSource: 'bench',
      // The throwaway Redmine is one WEBrick process: concurrent requests would only contend.
      config: { manifest: 'redmine', vars: { url: redmine.url, max_concurrency: 1 } },
      secrets: { apiKey: 'env:BENCH_REDMINE_API_KEY' },
    };
    await writeFile(
      config,
      JSON.stringify({ target: { url: sink.url }, stateDir: 'state', connectors: [connector] }),
    );

    process.stderr.write('first run (extract and push)...\n');
    const before = await served(redmine);
    const first = await oaaRunChild(dir, config, { BENCH_REDMINE_API_KEY: redmine.apiKey });
    const after = await served(redmine);
    const requests = after.requests - before.requests;
    const pushesAfterFirst = sink.pushes();
    process.stderr.write('second run (nothing changed)...\n');
    const second = await oaaRunChild(dir, config, { BENCH_REDMINE_API_KEY: redmine.apiKey });
    const pushesBySecond = sink.pushes() - pushesAfterFirst;
    const line = {
      ...redmineBulkCounts(shape),
      redmine_start_s: startS,
      run_total_s: first.wallS,
      run_status: first.result.status,
      run_peak_rss_mb: first.peakRssMb,
      redmine_requests: requests,
      requests_per_s: Math.round((requests / first.wallS) * 10) / 10,
      redmine_busy_s: seconds(after.busyMs - before.busyMs),
      counts: first.result.counts,
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
    await redmine?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:redmine failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
