/**
 * After a push the run waits for the service's parse outcome and the push's
 * OAA_PUSH event; the result (and the JSON report) carries them; a push the service reports as
 * failed after answering 200 is a failed run that leaves the state as it was.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appEntry, startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import { rejection } from '../private-test-helpers/rejection.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('waiting for the parse outcome after a push', () => {
  it('reports the parse status and the warnings of the push event, in the result and the report', async () => {
    await h.config([appEntry({ userCount: 3 })]);
    const result = await h.run('app');
    assert(result.status === 'pushed');
    expect(result.parse).toMatchObject({ status: 'WARNING', dataSourceStatus: 'SUCCESS' });
    expect(result.parse?.event?.severity).toBe('WARNING');
    expect(result.parse?.event?.warnings).toHaveLength(3);
    expect(result.parse?.event?.warnings[0]).toContain('Cannot find identity by names "user1@example.com"');
    const [pushEvent] = await h.admin.events({ eventType: 'OAA_PUSH' });
    expect(result.parse?.event?.id).toBe(pushEvent?.id);
    const report = JSON.parse(await readFile(join(h.state().dirOf('app'), 'last-run.json'), 'utf8')) as {
      parse: unknown;
    };
    expect(report.parse).toEqual(result.parse);
  });

  it('picks the event of this push, not an earlier one', async () => {
    await h.config([appEntry({ userCount: 2 })]);
    const first = await h.run('app');
    await h.config([appEntry({ userCount: 5 })]);
    const second = await h.run('app');
    assert(first.status === 'pushed' && second.status === 'pushed');
    expect(second.parse?.event?.id).not.toBe(first.parse?.event?.id);
    expect(second.parse?.event?.warnings).toHaveLength(5);
  });

  it('fails the run when the service reports the push failed after answering 200, keeping the state', async () => {
    await h.config([appEntry({ userCount: 2 })]);
    const first = await h.run('app');
    assert(first.status === 'pushed');
    const before = await h.stateFiles('app');
    await h.admin.failNextParse(first.dataSource.id, 'row 7: unknown permission "sudo"');
    await h.config([appEntry({ userCount: 4 })]);
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('PAYLOAD_REFUSED');
    expect(error.message).toContain('the service reports the push to provider "Fixture Provider"');
    expect(error.details['parse']).toMatchObject({ status: 'FAILED', dataSourceStatus: 'FAILED' });
    expect(error.hints).toContain('row 7: unknown permission "sudo"');
    expect(await h.stateFiles('app')).toEqual(before);
    expect(await h.pushCalls()).toHaveLength(2);
  });

  it('can be turned off', async () => {
    await h.config([appEntry({ userCount: 1 })]);
    const result = await h.run('app', { awaitParse: false });
    assert(result.status === 'pushed');
    expect(result.parse).toBeUndefined();
  });
});
