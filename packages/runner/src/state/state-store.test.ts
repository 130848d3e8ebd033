import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateStore } from './state-store.js';
import type { StoredState } from './stored-state.js';

let root: string;
let store: StateStore;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'oaa-state-'));
  store = new StateStore(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function state(digest: string, snapshot: string): StoredState {
  return {
    version: 1,
    connectorId: 'hr',
    plugin: { id: 'hr', version: '1.0.0' },
    template: 'hris',
    provider: { id: 'p1', name: 'HR' },
    dataSource: { id: 'd1', name: 'main' },
    digest,
    counts: { employees: 1, groups: 0 },
    snapshot,
    pushedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    connectorState: { cursor: 'abc' },
  };
}

async function commitPayload(digest: string, payload: unknown): Promise<void> {
  const snapshot = await store.openSnapshot('hr', digest);
  await snapshot.write(gzipSync(JSON.stringify(payload)));
  await store.commit('hr', { state: state(digest, snapshot.name), report: { status: 'pushed' }, snapshot });
}

describe('StateStore', () => {
  it('reads back what a commit wrote, and keeps only the current snapshot', async () => {
    expect(await store.read('hr')).toBeUndefined();
    await commitPayload('aa11', { employees: [{ id: '1' }] });
    await commitPayload('bb22', { employees: [{ id: '2' }] });
    const read = await store.read('hr');
    expect(read).toMatchObject({ digest: 'bb22', connectorState: { cursor: 'abc' } });
    expect(await store.readSnapshot('hr', read!)).toEqual({ employees: [{ id: '2' }] });
    expect(await store.readReport('hr')).toEqual({ status: 'pushed' });
    expect((await readdir(store.dirOf('hr'))).sort()).toEqual([
      'last-run.json',
      'snapshot-bb22.json.gz',
      'state.json',
    ]);
    expect(await store.list()).toEqual(['hr']);
  });

  it('refuses a commit of a run that read the state before another run committed (STATE_CONFLICT)', async () => {
    await commitPayload('aa11', { employees: [{ id: '1' }] });
    const late = new StateStore(root);
    expect(await late.read('hr')).toMatchObject({ digest: 'aa11' });
    await store.read('hr');
    await commitPayload('bb22', { employees: [{ id: '2' }] });
    await expect(late.commit('hr', { state: state('cc33', 'snapshot-bb22.json.gz') })).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    expect(await store.read('hr')).toMatchObject({ digest: 'bb22' });
    // A store that read the newer state commits over it.
    await late.read('hr');
    await late.commit('hr', { state: state('cc33', 'snapshot-bb22.json.gz') });
    expect(await store.read('hr')).toMatchObject({ digest: 'cc33' });
  });

  it('leaves nothing behind for a snapshot that is discarded', async () => {
    await commitPayload('aa11', {});
    const before = (await readdir(store.dirOf('hr'))).sort();
    const snapshot = await store.openSnapshot('hr', 'cc33');
    await snapshot.write(Buffer.from('partial'));
    await snapshot.discard();
    expect((await readdir(store.dirOf('hr'))).sort()).toEqual(before);
  });

  it('sweeps debris of interrupted writes', async () => {
    await commitPayload('aa11', {});
    await writeFile(join(store.dirOf('hr'), 'state.json.tmp-123-abcd'), '{');
    await store.sweep('hr');
    expect(await readdir(store.dirOf('hr'))).not.toContain('state.json.tmp-123-abcd');
  });

  it('refuses a hand-broken or newer state file with a hint', async () => {
    await commitPayload('aa11', {});
    const path = join(store.dirOf('hr'), 'state.json');
    await writeFile(path, '{"version": 1, "digest": 5}');
    await expect(store.read('hr')).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      hints: [expect.stringContaining(`delete ${path}`)],
    });
    await writeFile(path, '{"version": 9}');
    await expect(store.read('hr')).rejects.toMatchObject({
      message: expect.stringContaining('written by a newer oaakit (format 9'),
    });
  });

  it('resets a connector so the next run starts afresh', async () => {
    await commitPayload('aa11', {});
    const lock = await store.lock('hr');
    expect(await store.reset('hr')).toBe(true);
    await lock.release();
    expect(await store.read('hr')).toBeUndefined();
  });

  it('rejects connector ids that would escape the state directory', () => {
    expect(() => store.dirOf('../etc')).toThrow(/cannot name a state directory/);
  });
});
