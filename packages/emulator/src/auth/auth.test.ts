import { describe, expect, it } from 'vitest';
import { useEmulator, userFacing, values, violations } from '../private-test-helpers/harness.js';

describe('authentication and roles', () => {
  const h = useEmulator({
    apiKeys: [
      { key: 'admin-secret-key', role: 'admin' },
      { key: 'monitor-secret-key', role: 'system_monitoring' },
      { key: 'member-secret-key', role: 'member' },
    ],
  });

  it('returns the first seeded admin key', () => {
    expect(h().emu.adminKey).toBe('admin-secret-key');
    expect(h().emu.adminKeyGenerated).toBe(false);
  });

  it.each([
    ['no Authorization header', null, undefined],
    ['an unknown key', 'nope', undefined],
    ['a malformed header', undefined, 'Basic abc'],
  ])('answers 401 Unauthenticated for %s', async (_what, key, header) => {
    const r = await h().call(
      'GET',
      '/api/v1/providers/custom',
      undefined,
      header === undefined ? { key } : { key: null, headers: { authorization: header } },
    );
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('Unauthenticated');
    expect(userFacing(r.body)?.reason).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(r.body)).not.toContain('nope');
  });

  it('lets every role use /api/v1', async () => {
    for (const key of ['admin-secret-key', 'monitor-secret-key', 'member-secret-key']) {
      expect((await h().call('GET', '/api/v1/providers/custom', undefined, { key })).status).toBe(200);
    }
  });

  it('keeps the private configuration endpoints to admin and system_monitoring', async () => {
    const path = '/api/private/namespaces/integrations/configurations';
    const denied = await h().call('GET', `${path}?page_size=100`, undefined, { key: 'member-secret-key' });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('PermissionDenied');
    expect(userFacing(denied.body)?.reason).toBe('PERMISSION_DENIED');
    const put = await h().call(
      'PUT',
      `${path}/idp_sso_user_matching_property`,
      { value: 'email' },
      { key: 'monitor-secret-key' },
    );
    expect(put.status).toBe(200);
    const got = await h().call('GET', `${path}?page_size=100`, undefined, { key: 'admin-secret-key' });
    expect(got.body.values).toEqual([{ key: 'idp_sso_user_matching_property', value: 'email' }]);
    const bad = await h().call('PUT', `${path}/idp_sso_user_matching_property`, {});
    expect(violations(bad.body)[0]?.field).toBe('value');
  });

  it('keeps /_emulator to admin keys', async () => {
    expect(
      (await h().call('GET', '/_emulator/api_keys', undefined, { key: 'monitor-secret-key' })).status,
    ).toBe(403);
    expect((await h().call('GET', '/_emulator/clock', undefined, { key: null })).status).toBe(401);
  });

  it('creates a key once, lists keys by prefix only, and revokes a key', async () => {
    const created = await h().call('POST', '/_emulator/api_keys', { role: 'member', name: 'ci' });
    expect(created.status).toBe(200);
    const { key, id, prefix } = created.body.value as { key: string; id: string; prefix: string };
    expect(key).toMatch(/^oaa_emu_/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(key.length / 2);
    expect((await h().call('GET', '/api/v1/providers/custom', undefined, { key })).status).toBe(200);
    const list = await h().call('GET', '/_emulator/api_keys');
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(JSON.stringify(list.body)).not.toContain('admin-secret-key');
    expect(values<{ id: string }>(list).find((k) => k.id === id)).toMatchObject({
      name: 'ci',
      role: 'member',
      revoked_at: null,
    });
    expect((await h().call('DELETE', `/_emulator/api_keys/${id}`)).status).toBe(200);
    expect((await h().call('GET', '/api/v1/providers/custom', undefined, { key })).status).toBe(401);
    expect((await h().call('DELETE', '/_emulator/api_keys/unknown')).status).toBe(404);
    expect(violations((await h().call('POST', '/_emulator/api_keys', { role: 'root' })).body)[0]?.field).toBe(
      'role',
    );
  });
});

describe('generated admin key', () => {
  const h = useEmulator();

  it('generates an admin key when none is seeded', async () => {
    expect(h().emu.adminKeyGenerated).toBe(true);
    expect((await h().call('GET', '/_emulator/api_keys')).status).toBe(200);
  });
});
