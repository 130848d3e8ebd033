import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

import { until } from '@oaakit/emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appEntry, startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import type { RunProgressEvent } from './run-types.js';
import { rejection } from '../private-test-helpers/rejection.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

function when(predicate: (e: RunProgressEvent) => boolean): {
  reached: Promise<void>;
  onProgress: (e: RunProgressEvent) => void;
} {
  let resolve!: () => void;
  const reached = new Promise<void>((r) => (resolve = r));
  return { reached, onProgress: (e) => predicate(e) && resolve() };
}

describe('runs that meet each other or get interrupted', () => {
  it('refuses a second concurrent run of one data source naming the holder, or lets it wait', async () => {
    const gate = join(h.dir, 'release-first-run');
    await h.config([appEntry({ waitForFile: gate })]);
    const extracting = when((e) => e.phase === 'extract' && e.kind === 'start');
    const first = h.run('app', { onProgress: extracting.onProgress });
    await extracting.reached;

    const refused = await rejection(h.run('app'));
    expect(refused.code).toBe('STATE_LOCKED');
    expect(refused.message).toContain(
      `the state of connector "app" is locked by pid ${process.pid} on ${hostname()}`,
    );

    const waiting = h.run('app', { lockWaitMs: 20_000 });
    await writeFile(gate, '');
    const [a, b] = await Promise.all([first, waiting]);
    expect(a.status).toBe('pushed');
    expect(b.status).toBe('skipped');
    expect(await h.pushCalls()).toHaveLength(1);
  });

  it('takes over a lock whose process is gone, but not one held on another host', async () => {
    await h.config([appEntry()]);
    const lockPath = join(h.state().dirOf('app'), 'lock');
    await h
      .state()
      .lock('app')
      .then((l) => l.release());
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(
      lockPath,
      JSON.stringify({ pid: deadPid, hostname: hostname(), since: '2020-01-01T00:00:00.000Z' }),
    );
    expect((await h.run('app')).status).toBe('pushed');

    await writeFile(
      lockPath,
      JSON.stringify({ pid: 4242, hostname: 'build-7', since: '2020-01-01T00:00:00.000Z' }),
    );
    const refused = await rejection(h.run('app'));
    expect(refused).toMatchObject({ code: 'STATE_LOCKED', details: { lockFile: lockPath } });
    expect(refused.message).toContain('locked by pid 4242 on build-7 since 2020-01-01T00:00:00.000Z');
    expect(refused.hints.join(' ')).toContain(`delete ${lockPath}`);
  });

  it('leaves no corrupt state when aborted during the upload, and the next run pushes', async () => {
    await h.config([appEntry({ userCount: 5 })]);
    await h.run('app');
    const before = await h.stateFiles('app');
    await h.config([appEntry({ userCount: 5, revision: '2' })]);
    // The emulator holds the push for its longest delay, longer than a test may run: only the
    // abort can end it.
    await h.admin.faults.add({ method: 'POST', path: '*:push', latency_ms: 600_000, count: 1 });

    const controller = new AbortController();
    const outcome = rejection(h.run('app', { signal: controller.signal }));
    // The fault is used up when the push reaches the emulator, which then holds it.
    await until('the push to reach the emulator', async () => (await h.admin.faults.list()).length === 0);
    controller.abort();
    const error = await outcome;
    expect(error.code).toBe('ABORTED');
    expect(error.message).toContain('connector "app": the run was aborted; the state is unchanged');
    expect(await h.stateFiles('app')).toEqual(before);

    await h.admin.faults.clear();
    expect(await h.run('app')).toMatchObject({
      status: 'pushed',
      diff: { byKind: { applications: { changed: 1 } } },
    });
  });

  it('stops an extraction when aborted, without touching the state', async () => {
    await h.config([appEntry({ waitForFile: join(h.dir, 'never') })]);
    const controller = new AbortController();
    const extracting = when((e) => e.phase === 'extract' && e.kind === 'start');
    const run = h.run('app', { signal: controller.signal, onProgress: extracting.onProgress });
    await extracting.reached;
    controller.abort();
    expect((await rejection(run)).code).toBe('ABORTED');
    expect(await h.stateFiles('app')).toEqual({});
    expect(await h.pushCalls()).toEqual([]);
  });
});
