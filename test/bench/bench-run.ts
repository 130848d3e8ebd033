#!/usr/bin/env node
/**
 * The `oaa run` benchmark: `npm run bench:run -- --users N [--url URL] [--skip-core]`.
 * Runs the bench connector (bench-app-N, users and grants streamed) through the built `oaa run`
 * as a child process, with a config file and a state directory in a temporary directory, into the
 * counting sink (which answers the provider, data source, push and parts calls like the service) or
 * the service at URL (API key in OAA_API_KEY). Then, in the same invocation, runs `npm run bench`'s
 * harness (`bench.js`, same N, same target) as a child for the core path's total, and prints one
 * JSON line: the fields of `npm run bench` for the `oaa run` child, `bench_total_s` and
 * `run_total_s / bench_total_s`. Peak RSS is the `oaa run` child's, written by a preloaded module.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { jsonChunks } from '@oaakit/core';
import { buildBenchApp } from './bench-app.js';
import { gzipSeconds } from './gzip-floor.js';
import { startCountingSink, type CountingSink } from './sink.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    url: { type: 'string' },
    'skip-core': { type: 'boolean', default: false },
  },
});
const n = Number(values.users);
if (!Number.isSafeInteger(n) || n < 1)
  throw new Error(`--users must be a positive whole number, got ${values.users}`);

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const oaaBin = join(repo, 'packages/cli/bin/run.js');
const pluginDir = join(repo, 'test/bench/connector');
const round = (x: number) => Math.round(x * 1000) / 1000;

interface Child {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

function runChild(args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', fail);
    child.on('close', (code) =>
      done({ code, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9 }),
    );
  });
}

interface RunJson {
  results: {
    status: string;
    durationMs: number;
    bytes?: { json: number; compressed: number };
    push?: { mode: string };
    warnings: unknown[];
    validationWarnings: unknown[];
  }[];
}

async function oaaRun(url: string, apiKey: string) {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-bench-run-'));
  try {
    const config = join(dir, 'oaa.config.json');
    const connector = {
      id: 'bench',
      plugin: pluginDir,
      provider: 'bench',
      dataSource: 'bench',
      config: { users: n },
    };
    await writeFile(config, JSON.stringify({ target: { url }, stateDir: 'state', connectors: [connector] }));
    const rssFile = join(dir, 'peak-rss');
    const preload = new URL('./peak-rss-at-exit.js', import.meta.url).href;
    const env = { ...process.env, OAA_API_KEY: apiKey, OAA_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' };
    const child = await runChild(['--import', preload, oaaBin, 'run', '--config', config, '--json'], env);
    if (child.code !== 0)
      throw new Error(`oaa run exited with ${child.code}: ${child.stderr || child.stdout}`);
    const result = (JSON.parse(child.stdout) as RunJson).results[0];
    if (result?.status !== 'pushed') throw new Error(`oaa run did not push: ${child.stdout}`);
    const peakRss = Number(await readFile(rssFile, 'utf8'));
    return { child, result, peakRss };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function coreBench(url: string | undefined, apiKey: string): Promise<{ total_s: number }> {
  const args = [join(here, 'bench.js'), '--users', String(n), ...(url === undefined ? [] : ['--url', url])];
  const child = await runChild(args, { ...process.env, OAA_API_KEY: apiKey });
  if (child.code !== 0) throw new Error(`npm run bench exited with ${child.code}: ${child.stderr}`);
  return JSON.parse(child.stdout) as { total_s: number };
}

async function main() {
  const apiKey = values.url ? process.env.OAA_API_KEY : 'bench-sink-key';
  if (apiKey === undefined || apiKey === '') throw new Error('--url needs the API key in OAA_API_KEY');
  let sink: CountingSink | undefined;
  try {
    if (values.url === undefined) sink = await startCountingSink();
    const url = values.url ?? sink!.url;
    const { child, result, peakRss } = await oaaRun(url, apiKey);
    const pushed = sink?.pushes();
    await sink?.close();
    sink = undefined;

    // The reference: node:zlib alone on the same JSON bytes, same level, in this process.
    const chunks: Buffer[] = [];
    for await (const chunk of jsonChunks(buildBenchApp(n, 'streamed'))) chunks.push(chunk);
    const gzip_floor_s = await gzipSeconds(chunks, 6);
    chunks.length = 0;

    const core = values['skip-core'] ? undefined : await coreBench(values.url, apiKey);
    const total_s = child.seconds;
    const line = {
      n,
      path: 'oaa run',
      // extract, validation, diff and push are one pass in `oaa run`: the time is in push_s.
      build_s: null,
      validate_s: null,
      push_s: round(result.durationMs / 1000),
      total_s: round(total_s),
      json_bytes: result.bytes?.json,
      gzip_bytes: result.bytes?.compressed,
      gzip_floor_s: round(gzip_floor_s),
      ratio_to_floor: round(total_s / gzip_floor_s),
      peak_rss_mb: Math.round(peakRss / 1024 / 1024),
      warnings: result.warnings.length + result.validationWarnings.length,
      push_mode: result.push?.mode,
      ...(pushed === undefined ? {} : { sink_pushes: pushed }),
      bench_total_s: core?.total_s ?? null,
      run_over_bench: core === undefined ? null : round(total_s / core.total_s),
      node: process.version,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } finally {
    await sink?.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:run failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
