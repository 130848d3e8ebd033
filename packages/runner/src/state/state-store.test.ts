import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashAsRead, type JsonObject } from '@oaakit/core';
import { writeHashSnapshot } from '../testing/hash-snapshot.js';
import type { PreviousHashes } from './previous-hashes.js';
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

/** Commits a push of `payload` with its entity-hash snapshot, written as a run writes it. */
async function commitPayload(digest: string, payload: JsonObject): Promise<void> {
  const snapshot = await store.openSnapshot('hr', digest);
  await writeHashSnapshot(snapshot, 'hris', payload);
  await store.commit('hr', { state: state(digest, snapshot.name), report: { status: 'pushed' }, snapshot });
}

/** kind -> key -> label, of the hashes read back. */
async function labels(hashes: PreviousHashes): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for await (const e of hashes.entries()) (out[e.kind] ??= {})[e.key.replace('\u0000', ':')] = e.label;
  return out;
}

describe('StateStore', () => {
  it('reads back what a commit wrote, and keeps only the current snapshot', async () => {
    expect(await store.read('hr')).toBeUndefined();
    await commitPayload('aa11', { employees: [{ id: '1', name: 'Ann' }] });
    await commitPayload('bb22', { employees: [{ id: '2', name: 'Bo' }] });
    const read = await store.read('hr');
    expect(read).toMatchObject({ digest: 'bb22', connectorState: { cursor: 'abc' } });
    const hashes = await store.readSnapshot('hr', read!);
    expect(await labels(hashes)).toEqual({ employees: { 'id:2': 'Bo' } });
    expect(await store.readReport('hr')).toEqual({ status: 'pushed' });
    expect((await readdir(store.dirOf('hr'))).sort()).toEqual([
      'last-run.json',
      'snapshot-bb22.hashes.gz',
      'state.json',
    ]);
    expect(await store.list()).toEqual(['hr']);
  });

  it('reads back keys and labels that hold tabs, line breaks, quotes, backslashes and non-ASCII text', async () => {
    const names = ['tab\there', 'line\nbreak', 'cr\rhere', 'say "hi"', 'back\\slash', 'Zoë', '名前', 'plain'];
    // With a name other than the id (a label on the line), and without (no label).
    const employees: { id: string; name?: string }[] = [
      ...names.map((name, i) => ({ id: `${name}-${i}`, name })),
      ...names.map((name) => ({ id: name })),
    ];
    await commitPayload('ab12', { employees });
    const hashes = await store.readSnapshot('hr', (await store.read('hr'))!);
    expect(await labels(hashes)).toEqual({
      employees: Object.fromEntries(
        employees.map(({ id, name }) => [`id:${id}`.toLowerCase(), name ?? id.toLowerCase()]),
      ),
    });
    // Every entity is found again by its key, however its line was read (in place or as text).
    for (const { id } of employees)
      expect(hashes.take('employees', '', 'id\u0000', id.toLowerCase())).toBeTypeOf('number');
    expect(hashes.missing()).toEqual(new Map());
  });

  it('refuses the state of another version of oaakit, naming the directory to delete', async () => {
    await commitPayload('cc33', { employees: [{ id: '7', name: 'Cy' }], groups: [{ id: 'g', name: 'G' }] });
    const dir = store.dirOf('hr');
    const text = gunzipSync(await readFile(join(dir, 'snapshot-cc33.hashes.gz'))).toString('utf8');
    expect(text.startsWith('{"format":"oaakit.entity-hashes.v5"')).toBe(true);
    // Entity hashes of an earlier format, and (earlier still) a snapshot of the gzip payload.
    await writeFile(
      join(dir, 'snapshot-dd44.hashes.gz'),
      gzipSync(text.replace('oaakit.entity-hashes.v5', 'oaakit.entity-hashes.v4')),
    );
    await writeFile(
      join(dir, 'snapshot-ee55.json.gz'),
      gzipSync(JSON.stringify({ employees: [{ id: '7' }] })),
    );
    const cases: [string, string][] = [
      [
        'snapshot-dd44.hashes.gz',
        'its snapshot snapshot-dd44.hashes.gz is of format oaakit.entity-hashes.v4',
      ],
      ['snapshot-ee55.json.gz', 'its snapshot snapshot-ee55.json.gz is a payload, not entity hashes'],
    ];
    for (const [snapshot, what] of cases) {
      await expect(store.readSnapshot('hr', state('dd44', snapshot))).rejects.toMatchObject({
        code: 'STATE_CORRUPT',
        message: `the state in ${dir} cannot be read: written by another version of oaakit (${what}). Delete ${dir} and run again: the next run pushes everything and starts the diff history afresh`,
        hints: [`delete ${dir} and run again`],
      });
    }
  });

  it('reads back the own hash the hasher gave each entity', async () => {
    const employees = Array.from({ length: 50 }, (_, i) => ({
      id: String(i),
      name: `E${i}`,
      email: `e${i}@x`,
    }));
    const given: number[] = [];
    hashAsRead('hris', { employees }, (e) => given.push(e.own));
    await commitPayload('ab34', { employees });
    const read: number[] = [];
    for await (const e of (await store.readSnapshot('hr', (await store.read('hr'))!)).entries())
      read.push(e.own);
    expect(read).toEqual(given);
    expect(new Set(read).size).toBe(50);
  });

  it('writes a label only when it is not what the key reads as, and reads both back', async () => {
    await commitPayload('cd34', {
      employees: [{ id: 'ann', name: 'Ann' }, { id: 'bo' }],
      groups: [{ id: 'g' }],
    });
    const text = gunzipSync(await readFile(join(store.dirOf('hr'), 'snapshot-cd34.hashes.gz'))).toString(
      'utf8',
    );
    const entities = text
      .split('\n')
      .filter((line) => /^\d/.test(line))
      .map((line) => line.split('\t'));
    expect(entities.map((fields) => fields.slice(3))).toEqual(
      expect.arrayContaining([['id\u0000ann', 'Ann'], ['id\u0000bo'], ['id\u0000g']]),
    );
    expect(await labels(await store.readSnapshot('hr', (await store.read('hr'))!))).toEqual({
      employees: { 'id:ann': 'Ann', 'id:bo': 'bo' },
      groups: { 'id:g': 'g' },
    });
  });

  it('reads back a snapshot of many entities, hashed before and during the read', async () => {
    // Lists are hashed when the pass starts, so lines are written before the first byte is read.
    const employees = Array.from({ length: 20_000 }, (_, i) => ({ id: String(i), name: `E${i}` }));
    await commitPayload('ff66', { employees, groups: new Set([{ id: 'g', name: 'G' }]) });
    const hashes = await store.readSnapshot('hr', (await store.read('hr'))!);
    const read = await labels(hashes);
    expect(Object.keys(read.employees ?? {})).toHaveLength(20_000);
    expect(read.employees?.['id:19999']).toBe('E19999');
    expect(read.groups).toEqual({ 'id:g': 'G' });
  });

  it('names a snapshot it cannot read', async () => {
    await commitPayload('ee55', {});
    const dir = store.dirOf('hr');
    await writeFile(join(dir, 'snapshot-ee55.hashes.gz'), gzipSync('{"format":"other"}\n'));
    await expect(store.readSnapshot('hr', state('ee55', 'snapshot-ee55.hashes.gz'))).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringMatching(
        /snapshot-ee55\.hashes\.gz.*not an oaakit\.entity-hashes\.v5 file/,
      ) as unknown,
    });
    // Empty, and an entity line whose own hash is not hex: the line is quoted.
    const cases: [string, RegExp][] = [
      ['', /the file is empty/],
      [
        '{"format":"oaakit.entity-hashes.v5"}\nS\t""\n1\t0\t01234X6789abc\tid\u0000bo\nH\th\n',
        /unreadable line "1\\t0\\t01234X6789abc\\tid\\u0000bo"/,
      ],
      [
        '{"format":"oaakit.entity-hashes.v5"}\nS\t""\n1\t7\t0123456789abc\tid\u0000bo\nH\th\n',
        /unreadable line/,
      ],
    ];
    for (const [text, message] of cases) {
      await writeFile(join(dir, 'snapshot-ee57.hashes.gz'), gzipSync(text));
      await expect(store.readSnapshot('hr', state('ee57', 'snapshot-ee57.hashes.gz'))).rejects.toMatchObject({
        code: 'STATE_CORRUPT',
        message: expect.stringMatching(message) as unknown,
      });
    }
    // Cut short: no header hash at its end.
    await writeFile(join(dir, 'snapshot-ee56.hashes.gz'), gzipSync('{"format":"oaakit.entity-hashes.v5"}\n'));
    await expect(store.readSnapshot('hr', state('ee56', 'snapshot-ee56.hashes.gz'))).rejects.toMatchObject({
      code: 'STATE_CORRUPT',
      message: expect.stringContaining('ends before its last line') as unknown,
    });
  });

  it('refuses a commit of a run that read the state before another run committed (STATE_CONFLICT)', async () => {
    await commitPayload('aa11', { employees: [{ id: '1' }] });
    const late = new StateStore(root);
    expect(await late.read('hr')).toMatchObject({ digest: 'aa11' });
    await store.read('hr');
    await commitPayload('bb22', { employees: [{ id: '2' }] });
    await expect(
      late.commit('hr', { state: state('cc33', 'snapshot-bb22.hashes.gz') }),
    ).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    expect(await store.read('hr')).toMatchObject({ digest: 'bb22' });
    // A store that read the newer state commits over it.
    await late.read('hr');
    await late.commit('hr', { state: state('cc33', 'snapshot-bb22.hashes.gz') });
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
