import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ValidationError } from '@oaakit/core';
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

describe('runConnector against the emulator', () => {
  it('pushes a first run: creates provider and data source, reports counts, bytes, diff and progress', async () => {
    await h.config([appEntry({ userCount: 12 })]);
    const events: RunProgressEvent[] = [];
    const result = await h.run('app', { onProgress: (e) => events.push(e) });

    assert(result.status === 'pushed');
    expect(result.provider).toMatchObject({ name: 'Fixture Provider', created: true });
    expect(result.dataSource).toMatchObject({ name: 'fixture (main)', created: true });
    expect(result.counts.local_users).toBe(12);
    expect(result.push).toEqual({ mode: 'single', chunks: 1 });
    expect(result.bytes.json).toBeGreaterThan(result.bytes.compressed);
    expect(result.diff).toMatchObject({
      firstPush: true,
      byKind: { local_users: { added: 12, removed: 0, changed: 0 } },
    });
    // No identity provider knows these users' emails: the service answers with one warning each.
    expect(result.warnings).toHaveLength(12);
    expect(result.warnings[0]?.message).toContain('Cannot find identity by names "user1@example.com"');
    expect(events.map((e) => `${e.phase}:${e.kind}`)).toEqual(
      expect.arrayContaining([
        'extract:start',
        'extract:end',
        'validate:end',
        'diff:end',
        'push:start',
        'push:end',
      ]),
    );

    const provider = await h.client().providers.get(result.provider.id);
    expect(provider).toMatchObject({
      custom_template: 'application',
      external_lifecycle_management_type: 'SCIM',
    });
    const state = await h.state().read('app');
    expect(state).toMatchObject({
      digest: result.digest,
      connectorState: { runs: 1 },
      counts: { local_users: 12 },
    });
    expect(await h.state().readReport('app')).toMatchObject({ status: 'pushed', digest: result.digest });
  });

  it('skips an unchanged second run without pushing, and reuses the provider on a changed one', async () => {
    await h.config([appEntry()]);
    const first = await h.run('app');
    await h.admin.calls.clear();

    const second = await h.run('app');
    expect(second).toMatchObject({
      status: 'skipped',
      skipped: 'unchanged',
      diff: { totals: { added: 0, removed: 0, changed: 0 } },
    });
    expect(await h.pushCalls()).toEqual([]);
    expect((await h.state().read('app'))?.connectorState).toEqual({ runs: 2 });

    await h.config([appEntry({ revision: '2' })]);
    const third = await h.run('app');
    expect(third.status).toBe('pushed');
    expect(third.provider).toEqual({ ...first.provider, created: false });
    expect(third.diff.byKind).toEqual({ applications: { added: 0, removed: 0, changed: 1 } });
    expect(await h.pushCalls()).toHaveLength(1);
    const providers = [];
    for await (const p of h.client().providers.list()) providers.push(p);
    expect(providers).toHaveLength(1);
  });

  it('refuses a push that removes more than 20% of the users, and pushes it with force', async () => {
    await h.config([appEntry({ userCount: 10 })]);
    await h.run('app');
    const before = await h.stateFiles('app');
    await h.admin.calls.clear();

    await h.config([appEntry({ userCount: 7 })]);
    const refused = await rejection(h.run('app'));
    expect(refused.code).toBe('DELETION_GUARD');
    expect(refused.message).toContain('remove 3 of 10 local_users (30%, more than the allowed 20%)');
    expect(refused.hints.join(' ')).toContain('--force');
    expect(await h.stateFiles('app')).toEqual(before);
    expect(await h.pushCalls()).toEqual([]);

    const dry = await h.run('app', { dryRun: true, offline: true });
    expect(dry).toMatchObject({ status: 'dry-run', guard: { refused: true, removed: 3, previous: 10 } });

    const forced = await h.run('app', { force: true });
    expect(forced).toMatchObject({ status: 'pushed', guard: { forced: true, refused: false } });
    expect(forced.diff.byKind.local_users).toEqual({ added: 0, removed: 3, changed: 0 });
  });

  it('lets the config raise the share the guard allows', async () => {
    await h.config([appEntry({ userCount: 10 })]);
    await h.run('app');
    await h.config([appEntry({ userCount: 6 }, { maxDeletionShare: 0.5 })]);
    expect(await h.run('app')).toMatchObject({
      status: 'pushed',
      guard: { share: 0.4, maxShare: 0.5, refused: false },
    });
  });

  it('dry-runs without any network call and saves the payload as JSON or gzip', async () => {
    await h.config([appEntry({ userCount: 3 })]);
    const jsonPath = join(h.dir, 'out', 'payload.json');
    const result = await h.run('app', { dryRun: true, offline: true, savePayload: jsonPath });
    expect(result).toMatchObject({ status: 'dry-run', diff: { firstPush: true }, savedPayload: jsonPath });
    const saved = JSON.parse(await readFile(jsonPath, 'utf8'));
    expect(saved.applications[0].local_users).toHaveLength(3);
    expect(result.bytes?.json).toBe((await readFile(jsonPath)).byteLength);

    const gzPath = join(h.dir, 'payload.json.gz');
    await h.run('app', { dryRun: true, offline: true, savePayload: gzPath });
    expect(JSON.parse(gunzipSync(await readFile(gzPath)).toString('utf8'))).toEqual(saved);

    expect(await h.admin.calls.list()).toEqual([]);
    expect(await h.state().read('app')).toBeUndefined();
  });

  it('stops on validation errors, listing every violation, and leaves the state alone', async () => {
    await h.config([appEntry({ userCount: 3 })]);
    await h.run('app');
    const before = await h.stateFiles('app');
    await h.config([appEntry({ userCount: 3, invalid: true })]);
    const error = await rejection(h.run('app'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect((error as ValidationError).violations.map((v) => v.field)).toContain(
      'applications[0].local_users[0].groups[0]',
    );
    expect(error.message).toContain('connector "app"');
    expect(await h.stateFiles('app')).toEqual(before);
  });

  it('reports a plugin that throws mid-extraction by connector, with the state untouched', async () => {
    await h.config([appEntry({ userCount: 5 })]);
    await h.run('app');
    const before = await h.stateFiles('app');
    await h.config([appEntry({ userCount: 5, revision: '2', throwAfter: 2 })]);
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('EXTRACT_FAILED');
    expect(error.message).toContain(
      'connector "app" (plugin fixture-app 1.2.3) failed while extracting: source went away after 2 users',
    );
    expect(await h.stateFiles('app')).toEqual(before);
    expect((await h.state().read('app'))?.connectorState).toEqual({ runs: 1 });
  });

  it('leaves the state untouched when the push fails after retries, and pushes on the next run', async () => {
    await h.config([appEntry({ userCount: 4 })]);
    await h.run('app');
    const before = await h.stateFiles('app');
    await h.config([appEntry({ userCount: 4, revision: '2' })]);
    await h.admin.faults.add({ method: 'POST', path: '*:push', status: 503, count: 100 });

    const error = await rejection(h.run('app'));
    expect(error.code).toBe('PUSH_FAILED');
    expect(error.details).toMatchObject({ connectorId: 'app', causeCode: expect.any(String) });
    expect(error.message).toContain('connector "app": pushing to provider "Fixture Provider"');
    expect((await h.pushCalls()).filter((c) => c.status === 503)).toHaveLength(3);
    expect(await h.stateFiles('app')).toEqual(before);

    await h.admin.faults.clear();
    const retried = await h.run('app');
    expect(retried).toMatchObject({ status: 'pushed', diff: { byKind: { applications: { changed: 1 } } } });
  });

  it('refuses the state of another version of oaakit, and pushes afresh once it is deleted as told', async () => {
    await h.config([appEntry({ userCount: 3 })]);
    await h.run('app');
    const dir = h.state().dirOf('app');
    const path = join(dir, (await h.state().read('app'))!.snapshot);
    const text = gunzipSync(await readFile(path)).toString('utf8');
    await writeFile(path, gzipSync(text.replace(/oaakit\.entity-hashes\.v\d+/, 'oaakit.entity-hashes.v1')));
    const before = await h.stateFiles('app');

    const error = await rejection(h.run('app'));
    expect(error.code).toBe('STATE_CORRUPT');
    expect(error.message).toContain(`Delete ${dir} and run again`);
    expect(await h.stateFiles('app')).toEqual(before);

    await rm(dir, { recursive: true });
    expect(await h.run('app')).toMatchObject({ status: 'pushed', diff: { firstPush: true } });
    expect(await h.run('app')).toMatchObject({ status: 'skipped' });
  });

  it('pushes again when the provider was deleted on the server, even if nothing changed', async () => {
    await h.config([appEntry()]);
    const first = await h.run('app');
    assert(first.status === 'pushed');
    const firstId = first.provider.id;
    await h.client().providers.delete(firstId);

    const second = await h.run('app');
    assert(second.status === 'pushed');
    expect(second.provider).toMatchObject({ name: 'Fixture Provider', created: true });
    expect(second.provider.id).not.toBe(firstId);
    expect((await h.state().read('app'))?.provider.id).toBe(second.provider.id);
    expect(await h.run('app')).toMatchObject({ status: 'skipped' });
  });

  it('splits a large payload into multipart chunks, then skips it unchanged', async () => {
    await h.config([appEntry({ userCount: 40, filler: 2000 })]);
    const result = await h.run('app', { push: { maxBodyBytes: 16 * 1024 } });
    assert(result.status === 'pushed');
    expect(result.push.mode).toBe('multipart');
    expect(result.push.chunks).toBeGreaterThan(1);
    const calls = await h.admin.calls.list();
    expect(calls.filter((c) => c.path.endsWith(':parts')).length).toBe(result.push.chunks + 2);
    expect(await h.run('app', { push: { maxBodyBytes: 16 * 1024 } })).toMatchObject({ status: 'skipped' });
  });
});
