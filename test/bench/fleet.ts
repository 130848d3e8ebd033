#!/usr/bin/env node
/**
 * The fleet throughput benchmark: `npm run bench:fleet -- [--connectors N] [--workers W] [--concurrency C]`.
 * Starts a real Redis (redis-server on a free port), an emulator in this process, W `oaa worker`
 * processes of the built binary with C runs each, queues one run of each of N small connectors
 * (`oaa jobs enqueue --all`) and prints one JSON line: how long the queue took to drain, and runs/s.
 * The connectors are the fleet test fixture (a few users each), so the figure is the fleet's own
 * overhead per run (queue, lock, state in Redis, provider and data-source lookups, push), not payload work.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startTestEmulator } from '@oaakit/emulator/testing';
import { RunsQueue, parseRedisUrl } from '@oaakit/fleet';
import { startTestRedis } from '@oaakit/fleet/testing';

const { values } = parseArgs({
  options: {
    connectors: { type: 'string', default: '200' },
    workers: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '2' },
  },
});
const n = Number(values.connectors);
const workers = Number(values.workers);
const concurrency = Number(values.concurrency);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'packages/cli/bin/run.js');
const plugin = join(root, 'packages/cli/test-fixtures/fleet/counter');

function oaa(args: string[], cwd: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function started(child: ChildProcess): Promise<void> {
  let text = '';
  child.stderr!.setEncoding('utf8');
  await new Promise<void>((resolvePromise, reject) => {
    child.stderr!.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('"event":"worker.start"')) resolvePromise();
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${text}`)));
  });
  child.stderr!.resume();
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-bench-fleet-'));
  const redis = await startTestRedis();
  const emulator = await startTestEmulator();
  const env = { ...emulator.env, OAA_QUEUE_URL: redis.url };
  const children: ChildProcess[] = [];
  try {
    const connectors = Array.from({ length: n }, (_, i) => ({
      id: `c${i}`,
      plugin,
      provider: 'Bench',
      dataSource: `bench ${i}`,
    }));
    await writeFile(join(dir, 'oaa.config.json'), JSON.stringify({ connectors }));
    for (let i = 0; i < workers; i++)
      children.push(oaa(['worker', '--port', '0', '--concurrency', String(concurrency)], dir, env));
    await Promise.all(children.map(started));
    const queue = await RunsQueue.open(parseRedisUrl(redis.url));
    const begun = process.hrtime.bigint();
    const enqueue = oaa(['jobs', 'enqueue', '--all', '--json'], dir, env);
    enqueue.stderr!.resume();
    await once(enqueue, 'exit');
    for (;;) {
      const { counts } = await queue.stats();
      if (counts.completed + counts.failed >= n) {
        const seconds = Number(process.hrtime.bigint() - begun) / 1e9;
        process.stdout.write(
          `${JSON.stringify({ connectors: n, workers, concurrency, failed: counts.failed, drain_s: Math.round(seconds * 100) / 100, runs_per_s: Math.round((n / seconds) * 10) / 10 })}\n`,
        );
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await queue.close();
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((c) => c.exitCode === null).map((c) => once(c, 'exit')));
    await emulator.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
