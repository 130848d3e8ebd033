/**
 * The multipart ceiling. The service takes at most 99 chunks of 100 MB; with the
 * request body reduced to 2 MiB for the test, the ceiling benchmark (test/bench/ceiling.ts, the
 * built script, in a process of its own) pushes a payload produced by an async generator that needs
 * exactly 99 chunks into an emulator process, and the same with 10 chunks. The pusher's peak RSS
 * must not grow with the number of chunks: holding the 89 extra chunks would add about 140 MB.
 *
 * The pusher runs with its V8 heap capped (`--max-old-space-size`), so that garbage V8 has not yet
 * collected cannot pass for growth: without a cap, Node 24 lets a longer run's heap grow by up to
 * 100 MB before it collects. Held chunks are Buffers, outside that heap: they would still show in
 * the RSS, and chunks held as strings would end the process with an out-of-memory error.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorProcess, type EmulatorProcess } from '@oaakit/emulator/testing';

const CEILING = fileURLToPath(new URL('../dist/bench/ceiling.js', import.meta.url));
const BODY_BYTES = 2 * 1024 * 1024;
const MB = 1024 * 1024;
/** Enough for the pusher's working set (about 40 MB of heap), far below what 99 chunks would need. */
const HEAP_CAP_MB = 64;

interface CeilingRun {
  parts: number;
  chunks: number;
  resources: number;
  gzip_bytes: number;
  peak_rss_mb: number;
  data_source_id: string;
}

let emu: EmulatorProcess;

beforeAll(async () => {
  emu = await startEmulatorProcess();
});
afterAll(async () => {
  await emu?.close();
});

async function pushCeiling(parts: number): Promise<CeilingRun> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_CAP_MB}`,
      CEILING,
      '--parts',
      String(parts),
      '--body-bytes',
      String(BODY_BYTES),
    ],
    { env: { ...process.env, ...emu.env }, maxBuffer: MB },
  );
  return JSON.parse(stdout) as CeilingRun;
}

async function resourcesIn(dataSourceId: string): Promise<number> {
  return (await emu.admin.graph.stats(dataSourceId)).nodes['OAA.Ceiling.Space.Resource'] ?? 0;
}

describe.runIf(process.platform === 'linux')('pushing at the 99-chunk ceiling', () => {
  it('pushes 10 and then 99 chunks, every resource arrives, and the pusher does not grow', async () => {
    const small = await pushCeiling(10);
    expect(small.chunks).toBe(10);
    expect(await resourcesIn(small.data_source_id)).toBe(small.resources);

    const full = await pushCeiling(99);
    expect(full.chunks).toBe(99);
    expect(full.data_source_id).toBe(small.data_source_id);
    expect(await resourcesIn(full.data_source_id)).toBe(full.resources);

    const extraChunksMb = (full.gzip_bytes - small.gzip_bytes) / MB;
    expect(extraChunksMb).toBeGreaterThan(120);
    // The record of a run: both peaks and what holding the chunks would have cost.
    console.info(
      `pusher peak RSS: ${small.peak_rss_mb} MB at 10 chunks, ${full.peak_rss_mb} MB at 99 (+${Math.round(extraChunksMb)} MB of chunks)`,
    );
    expect(full.peak_rss_mb - small.peak_rss_mb).toBeLessThan(extraChunksMb / 2);
  }, 600_000);
});
