/**
 * The built `oaa run --json` as a child process, for the connector benchmarks: one config file,
 * the environment it needs (the secrets' variables), its wall time and its peak RSS (written by the
 * preloaded `peak-rss-at-exit.js`). The child is the process a user runs, start-up included.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const oaaBin = join(repo, 'packages/cli/bin/run.js');

/** The fields of one connector's line of `oaa run --json` that the benchmarks print. */
export interface RunLine {
  status: string;
  durationMs: number;
  counts?: Record<string, number>;
  bytes?: { json: number; compressed: number };
  push?: { mode: string };
}

export interface OaaRunOutcome {
  /** The first (the benchmarks' only) connector's result. */
  result: RunLine;
  /** Wall time of the child, in seconds (three decimals). */
  wallS: number;
  peakRssMb: number;
}

/**
 * Runs `oaa run --config CONFIG --json` with `env` added to this process's environment (and the
 * counting sink's API key); the peak-RSS file goes in `dir`. Throws with the child's output when
 * it exits with an error.
 */
export async function oaaRunChild(
  dir: string,
  config: string,
  env: NodeJS.ProcessEnv,
): Promise<OaaRunOutcome> {
  const rssFile = join(dir, 'peak-rss');
  const preload = new URL('./peak-rss-at-exit.js', import.meta.url).href;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', preload, oaaBin, 'run', '--config', config, '--json'], {
    env: {
      ...process.env,
      OAA_API_KEY: 'bench-sink-key',
      ...env,
      OAA_BENCH_RSS_FILE: rssFile,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('close', done);
  });
  const wallS = Math.round(performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`oaa run exited with ${code}: ${stderr || stdout}`);
  const result = (JSON.parse(stdout) as { results: RunLine[] }).results[0]!;
  const peakRssMb = Math.round(Number(await readFile(rssFile, 'utf8')) / 1024 / 1024);
  return { result, wallS, peakRssMb };
}
