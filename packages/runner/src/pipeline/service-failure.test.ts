/**
 * What a run ends with when the service refuses something. The refusal names what to fix
 * (the config's names, the payload, the key) and keeps the service's field violations and request id
 * at the top of its details, against a real emulator.
 */
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

const NAME_RULE = {
  field: 'name',
  description: expect.stringMatching(/^must be letters, digits, spaces or /) as unknown,
};

describe('a run the service refuses', () => {
  it('is TARGET_REFUSED with the violations when the config names a provider the service does not allow', async () => {
    await h.config([appEntry({}, { provider: 'Payroll/EU' })]);
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('TARGET_REFUSED');
    expect(error.message).toMatch(/^connector "app": the service refused the provider "Payroll\/EU": POST /);
    expect(error.details).toMatchObject({
      status: 400,
      step: 'target',
      violations: [NAME_RULE],
      requestId: expect.stringMatching(/\S/) as unknown,
    });
    expect(error.hints[0]).toBe(
      'change `provider` of connector "app" in the config file to a value the service accepts',
    );
    // The service's "see the details" is gone: the details are the violations themselves.
    expect(error.hints.join('\n')).not.toMatch(/Reference error details/);
    expect(await h.pushCalls()).toHaveLength(0);
  });

  it('names the data source when that is the name refused', async () => {
    await h.config([appEntry({}, { dataSource: 'eu/main' })]);
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('TARGET_REFUSED');
    expect(error.message).toContain('the service refused the data source "eu/main"');
    expect(error.details['violations']).toEqual([NAME_RULE]);
    expect(error.hints[0]).toContain('change `dataSource` of connector "app"');
  });

  it('is PAYLOAD_REFUSED with the violations when the service refuses the pushed payload', async () => {
    // Valid locally, but the service takes no incremental payload as the first push to a data source.
    await h.config([appEntry({ incremental: true })]);
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('PAYLOAD_REFUSED');
    expect(error.message).toContain('connector "app": the service refused the payload pushed to provider');
    expect(error.details).toMatchObject({
      status: 400,
      step: 'push',
      violations: [
        {
          field: 'incremental_change',
          description: expect.stringContaining('not allowed as the first push') as unknown,
        },
      ],
    });
    expect(await h.state().read('app')).toBeUndefined();
  });

  it('is CREDENTIALS_REFUSED for a key the service does not know (401)', async () => {
    await h.config([appEntry()]);
    const wrong = `${h.apiKey}-revoked`;
    const error = await rejection(h.run('app', { client: h.client({ apiKey: wrong }) }));
    expect(error.code).toBe('CREDENTIALS_REFUSED');
    expect(error.message).toContain('connector "app": the service refused the API key');
    expect(error.details).toMatchObject({ status: 401 });
    expect(JSON.stringify(error.toJSON()) + error.message).not.toContain(wrong);
  });

  it('is CREDENTIALS_REFUSED when the role of the key does not allow the call (403)', async () => {
    await h.config([appEntry()]);
    await h.admin.faults.add({ method: 'POST', path: '/api/v1/providers/custom', code: 'PermissionDenied' });
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('CREDENTIALS_REFUSED');
    expect(error.message).toContain('the role of the API key does not allow this call');
    expect(error.details).toMatchObject({ status: 403 });
  });

  it('stays PUSH_FAILED, with the request id on top, when the service itself fails', async () => {
    await h.config([appEntry()]);
    await h.admin.faults.add({ method: 'POST', path: '*:push', status: 500, count: 10 });
    const error = await rejection(h.run('app'));
    expect(error.code).toBe('PUSH_FAILED');
    expect(error.details).toMatchObject({ status: 500, step: 'push' });
    expect(error.details['requestId']).toEqual(expect.stringMatching(/\S/));
  });
});
