/**
 * Percent-encoded paths must not reach routes without a key: access was once decided on the raw URL
 * while the router decodes it, so `/%5Femulator/...` slipped through. Faults and the call log must
 * read paths the same way.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator, userFacing, values } from '../private-test-helpers/harness.js';

const ADMIN_KEY = 'encoded-admin-key';
const MEMBER_KEY = 'encoded-member-key';

describe('percent-encoded paths reach no route their key does not admit', () => {
  const h = useEmulator({
    apiKeys: [
      { key: ADMIN_KEY, role: 'admin' },
      { key: MEMBER_KEY, role: 'member' },
    ],
  });

  const keyCount = async (): Promise<number> => values(await h().call('GET', '/_emulator/api_keys')).length;

  async function revokedKey(): Promise<string> {
    const created = await h().call('POST', '/_emulator/api_keys', { role: 'admin', name: 'to revoke' });
    const { key, id } = created.body.value as { key: string; id: string };
    expect((await h().call('DELETE', `/_emulator/api_keys/${id}`)).status).toBe(200);
    return key;
  }

  it('POST /%5Femulator/api_keys mints no key without an admin key', async () => {
    const revoked = await revokedKey();
    const before = await keyCount();
    for (const [key, status] of [
      [null, 401],
      [revoked, 401],
      [MEMBER_KEY, 403],
    ] as const) {
      const r = await h().call('POST', '/%5Femulator/api_keys', { role: 'admin' }, { key });
      expect(r.status).toBe(status);
      expect(r.body.value).toBeUndefined();
      expect(userFacing(r.body)?.reason).toBe(status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED');
    }
    expect(await keyCount()).toBe(before);
  });

  it('/%61pi/v1/providers/custom needs a valid key', async () => {
    const revoked = await revokedKey();
    for (const key of [null, revoked]) {
      const listed = await h().call('GET', '/%61pi/v1/providers/custom', undefined, { key });
      expect(listed.status).toBe(401);
      const created = await h().call(
        'POST',
        '/%61pi/v1/providers/custom',
        { name: 'sneaked in', custom_template: 'application' },
        { key },
      );
      expect(created.status).toBe(401);
    }
    expect(values(await h().call('GET', '/api/v1/providers/custom'))).toEqual([]);
  });

  it('answers an unknown path 401 without a key and 404 with one', async () => {
    const anonymous = await h().call('GET', '/%5Fnothing/here', undefined, { key: null });
    expect(anonymous.status).toBe(401);
    const known = await h().call('GET', '/%5Fnothing/here', undefined, { key: MEMBER_KEY });
    expect(known.status).toBe(404);
    expect(known.body.code).toBe('NotFound');
    expect(known.body.request_id).toBe(known.headers.get('x-request-id'));
  });

  it('faults an encoded API path like the plain one, and never an /_emulator one', async () => {
    await h().call('POST', '/_emulator/faults', {
      method: 'GET',
      path: '/api/v1/providers/custom',
      status: 503,
    });
    expect((await h().call('GET', '/%61pi/v1/providers/custom')).status).toBe(503);
    expect((await h().call('GET', '/api/v1/providers/custom')).status).toBe(200);

    await h().call('POST', '/_emulator/faults', { path: '*', status: 503, count: 5 });
    for (const path of [
      '/%5Femulator/clock',
      '/%5femulator/clock/',
      '/_EMULATOR/clock',
      '//_emulator/clock',
    ]) {
      expect([200, 404]).toContain((await h().call('GET', path)).status);
    }
    const pending = values<{ remaining: number }>(await h().call('GET', '/_emulator/faults'));
    expect(pending.map((f) => f.remaining)).toEqual([5]);
  });

  it('records an encoded API call under its decoded path, and no spelling of /_emulator', async () => {
    await h().call('DELETE', '/_emulator/calls');
    await h().call('GET', '/%61pi/v1/providers/custom/');
    for (const path of [
      '/%5Femulator/clock',
      '/_EMULATOR/clock',
      '//_emulator/clock',
      '/_emulator%2Fclock',
    ]) {
      await h().call('GET', path);
    }
    const calls = values<{ path: string; status: number }>(await h().call('GET', '/_emulator/calls'));
    expect(calls.map((c) => [c.path, c.status])).toEqual([['/api/v1/providers/custom', 200]]);
  });
});
