#!/usr/bin/env node
/**
 * The benchmark harness:
 * `npm run bench -- --users N [--url URL] [--level L] [--mode streamed|materialized] [--validation as-read|before] [--gzip-workers N]`.
 * Builds bench-app-N through the builder API, validates it, and pushes it (stream, gzip, base64) to
 * a counting HTTP sink on this machine, or to the service at URL. Prints one JSON line.
 *
 * Validation `before` (the default) validates the whole payload, then pushes it: the streamed users
 * and grants are produced twice. `as-read` checks everything but the users and grants before the
 * push and those while they are serialized (`createPayloadStream`'s `validate` option), so each is
 * produced once (what a one-shot or async source needs); the push fails before its last byte if any
 * is invalid. On this 2-core machine `before` is the faster of the two: validation then runs while
 * the second core is free, instead of beside gzip.
 */
import { request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createPayloadStream, jsonChunks, validate } from '@oaakit/core';
import { buildBenchApp, type BenchMode } from './bench-app.js';
import { gzipSeconds } from './gzip-floor.js';
import { pushToService } from './push-service.js';
import { startCountingSink } from './sink.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    url: { type: 'string' },
    level: { type: 'string', default: '6' },
    mode: { type: 'string', default: 'streamed' },
    validation: { type: 'string', default: 'before' },
    'gzip-workers': { type: 'string', default: '0' },
  },
});
const n = Number(values.users);
const level = Number(values.level);
if (!Number.isSafeInteger(n) || n < 1)
  throw new Error(`--users must be a positive whole number, got ${values.users}`);
const mode = values.mode as BenchMode;
if (mode !== 'streamed' && mode !== 'materialized')
  throw new Error(`--mode must be streamed or materialized, got ${values.mode}`);

const validation = values.validation;
if (validation !== 'as-read' && validation !== 'before')
  throw new Error(`--validation must be as-read or before, got ${values.validation}`);

const gzipWorkers = Number(values['gzip-workers']);
if (!Number.isInteger(gzipWorkers) || gzipWorkers < 0)
  throw new Error(`--gzip-workers must be a whole number, got ${values['gzip-workers']}`);

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const round = (x: number) => Math.round(x * 1000) / 1000;

async function pushToSink(payload: unknown) {
  const sink = await startCountingSink();
  try {
    const {
      stream,
      counters,
      validation: checked,
    } = createPayloadStream(payload, {
      compression: 'gzip',
      level,
      encoding: 'base64',
      gzipWorkers,
      ...(validation === 'as-read' ? { validate: { template: 'application' as const } } : {}),
    });
    const url = new URL(sink.url);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: '/push',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    const response = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
    req.write('{"id":"bench","data_source_id":"bench","compression_type":"GZIP","json_data":"');
    await pipeline(stream, req, { end: false });
    req.end('"}');
    const status = await response;
    if (status !== 200) throw new Error(`the sink answered ${status}`);
    return {
      jsonBytes: counters.jsonBytes,
      gzipBytes: counters.compressedBytes,
      mode: 'single',
      warnings: checked?.warnings.length ?? 0,
    };
  } finally {
    await sink.close();
  }
}

async function main() {
  const apiKey = process.env.OAA_API_KEY;
  if (values.url && !apiKey) throw new Error('--url needs the API key in OAA_API_KEY');
  if (values.url && level !== 6)
    throw new Error('--level applies to the counting sink; the client pushes at level 6');
  const started = process.hrtime.bigint();
  let t = process.hrtime.bigint();
  const payload = buildBenchApp(n, mode);
  const build_s = seconds(t);

  // As-read validation happens inside the push (its time is in push_s); `before` validates here.
  t = process.hrtime.bigint();
  const { errors, warnings } =
    validation === 'before' ? validate('application', payload) : { errors: [], warnings: [] };
  const validate_s = seconds(t);
  if (errors.length)
    throw new Error(`bench-app-${n} failed validation: ${JSON.stringify(errors.slice(0, 5))}`);

  t = process.hrtime.bigint();
  const pushed = values.url
    ? await pushToService(values.url, apiKey!, payload, validation === 'as-read')
    : await pushToSink(payload);
  const push_s = seconds(t);
  const total_s = seconds(started);
  const peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);

  // The reference: node:zlib alone on the same JSON bytes, same level, same process, after the run.
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(payload)) chunks.push(chunk);
  const gzip_floor_s = await gzipSeconds(chunks, level);

  const result = {
    n,
    mode,
    validation,
    gzip_workers: gzipWorkers,
    build_s: round(build_s),
    validate_s: round(validate_s),
    push_s: round(push_s),
    total_s: round(total_s),
    json_bytes: pushed.jsonBytes,
    gzip_bytes: pushed.gzipBytes,
    gzip_floor_s: round(gzip_floor_s),
    ratio_to_floor: round(total_s / gzip_floor_s),
    peak_rss_mb,
    warnings: warnings.length + pushed.warnings,
    push_mode: pushed.mode,
    node: process.version,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
