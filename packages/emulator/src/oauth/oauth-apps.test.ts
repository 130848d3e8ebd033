/**
 * OAuth2 app management under /_emulator/oauth_apps, over HTTP: the URL rules,
 * secrets shown once then by their first 4 characters, at most 2, revoke/reinstate/delete, events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../testing/test-emulator.js';

describe('OAuth2 app management', () => {
  let emu: TestEmulator;
  const post = async (path: string, body: unknown, key?: string): Promise<Response> =>
    fetch(emu.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key ?? emu.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const violations = async (r: Response): Promise<Record<string, string>> => {
    const body = (await r.json()) as {
      details: { field_violations?: { field: string; description: string }[] }[];
    };
    return Object.fromEntries(
      body.details.flatMap((d) => d.field_violations ?? []).map((v) => [v.field, v.description]),
    );
  };

  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu?.close());

  it('creates an app, answering its client id and first secret once', async () => {
    const app = await emu.admin.oauthApps.create({
      client_name: 'Reports',
      base_url: 'https://example.com',
      redirect_uris: ['https://example.com/cb', 'https://app.example.com/cb'],
      allowed_scopes: ['profile'],
    });
    expect(app.client_id).toBeTruthy();
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(app.allow_any_redirect_uri).toBe(false);
    expect(app.state).toBe('ACTIVE');
    expect(app.secrets).toEqual([
      {
        secret_id: app.secret_id,
        prefix: app.client_secret.slice(0, 4),
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    const listed = JSON.stringify(await emu.admin.oauthApps.list());
    expect(listed).toContain(app.client_id);
    expect(listed).not.toContain(app.client_secret);
    const events = await emu.admin.events({ eventType: 'API_KEY_CREATED' });
    expect(events.map((e) => e.entity_id)).toContain(app.client_id);
  });

  it('enforces the base URL scheme and the redirect URI scheme and domain, unless any is allowed', async () => {
    const bad = await post('/_emulator/oauth_apps', {
      client_name: 'Bad',
      base_url: 'ftp://example.com',
      redirect_uris: ['https://example.com/cb'],
      allowed_scopes: ['profile'],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(await violations(bad))).toContain('base_url');
    const wrong = await post('/_emulator/oauth_apps', {
      client_name: 'Wrong',
      base_url: 'https://example.com',
      redirect_uris: [
        'http://example.com/cb',
        'https://evil.com/cb',
        'https://notexample.com/cb',
        'https://a.example.com/cb#x',
      ],
      allowed_scopes: ['profile', 'openid'],
    });
    expect(wrong.status).toBe(400);
    const v = await violations(wrong);
    expect(v['redirect_uris[0]']).toMatch(/scheme/);
    expect(v['redirect_uris[1]']).toMatch(/domain/);
    expect(v['redirect_uris[2]']).toMatch(/domain/);
    expect(v['redirect_uris[3]']).toMatch(/fragment/);
    expect(v['allowed_scopes[1]']).toMatch(/one of/);
    const any = await post('/_emulator/oauth_apps', {
      client_name: 'Any',
      base_url: 'https://example.com',
      redirect_uris: ['http://127.0.0.1/cb'],
      allowed_scopes: ['profile'],
      allow_any_redirect_uri: true,
    });
    expect(any.status).toBe(200);
    const unknown = await post('/_emulator/oauth_apps', {
      client_name: 'x'.repeat(201),
      base_url: 'https://example.com',
      redirect_uris: Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`),
      allowed_scopes: ['profile'],
      colour: 'blue',
    });
    expect(Object.keys(await violations(unknown))).toEqual(
      expect.arrayContaining(['client_name', 'redirect_uris', 'colour']),
    );
    // Admin only.
    expect((await post('/_emulator/oauth_apps', {}, emu.apiKey)).status).toBe(403);
  });

  it('refuses javascript:, data:, vbscript: and file: redirect URIs even when any is allowed', async () => {
    const refused = [
      'javascript:alert(document.domain)',
      'JavaScript://example.com/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ];
    for (const allow of [true, false]) {
      const r = await post('/_emulator/oauth_apps', {
        client_name: 'Scripted',
        base_url: 'https://example.com',
        redirect_uris: ['https://example.com/cb', ...refused],
        allowed_scopes: ['profile'],
        allow_any_redirect_uri: allow,
      });
      expect(r.status).toBe(400);
      const v = await violations(r);
      expect(v['redirect_uris[0]']).toBeUndefined();
      refused.forEach((uri, i) => {
        const scheme = uri.slice(0, uri.indexOf(':') + 1).toLowerCase();
        expect(v[`redirect_uris[${i + 1}]`], uri).toBe(
          `must not use the ${scheme} scheme: a redirect URI must reach an app (http, https, or a private-use scheme such as com.example.app:/callback)`,
        );
      });
    }
    // A native app's private-use scheme (RFC 8252) is still allowed.
    const native = await post('/_emulator/oauth_apps', {
      client_name: 'Native',
      base_url: 'https://example.com',
      redirect_uris: ['com.example.app:/callback'],
      allowed_scopes: ['profile'],
      allow_any_redirect_uri: true,
    });
    expect(native.status).toBe(200);
  });

  it('holds at most 2 secrets, each listed by its first 4 characters; deletes one', async () => {
    const app = await emu.admin.oauthApps.create({
      client_name: 'Rotating',
      base_url: 'https://example.com',
      redirect_uris: ['https://example.com/cb'],
      allowed_scopes: ['profile'],
    });
    const second = await emu.admin.oauthApps.addSecret(app.client_id);
    expect(second.client_secret).not.toBe(app.client_secret);
    const third = await post(`/_emulator/oauth_apps/${app.client_id}/secrets`, {});
    expect(third.status).toBe(400);
    expect(JSON.stringify(await third.json())).toMatch(/2 client secrets/);
    const got = await emu.admin.oauthApps.get(app.client_id);
    expect(new Set(got.secrets.map((s) => s.prefix)).size).toBe(2);
    expect(got.secrets.map((s) => s.prefix)).toEqual([
      app.client_secret.slice(0, 4),
      second.client_secret.slice(0, 4),
    ]);
    expect(JSON.stringify(got)).not.toContain(second.client_secret);
    await emu.admin.oauthApps.deleteSecret(app.client_id, app.secret_id);
    expect((await emu.admin.oauthApps.get(app.client_id)).secrets.map((s) => s.secret_id)).toEqual([
      second.secret_id,
    ]);
    const missing = await fetch(`${emu.url}/_emulator/oauth_apps/${app.client_id}/secrets/${app.secret_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${emu.adminKey}` },
    });
    expect(missing.status).toBe(404);
    expect((await emu.admin.events({ eventType: 'API_KEY_UPDATED' })).length).toBe(2);
  });

  it('revokes, reinstates and deletes, recording each change', async () => {
    const app = await emu.admin.oauthApps.create({
      client_name: 'Lifecycle',
      base_url: 'https://example.com',
      redirect_uris: ['https://example.com/cb'],
      allowed_scopes: ['profile'],
    });
    expect((await emu.admin.oauthApps.revoke(app.client_id)).state).toBe('REVOKED');
    expect((await emu.admin.oauthApps.reinstate(app.client_id)).state).toBe('ACTIVE');
    expect((await post(`/_emulator/oauth_apps/${app.client_id}:explode`, {})).status).toBe(404);
    await emu.admin.oauthApps.delete(app.client_id);
    const gone = await fetch(`${emu.url}/_emulator/oauth_apps/${app.client_id}`, {
      headers: { authorization: `Bearer ${emu.adminKey}` },
    });
    expect(gone.status).toBe(404);
    for (const type of ['API_KEY_REVOKED', 'API_KEY_REINSTATED', 'API_KEY_DELETED'])
      expect((await emu.admin.events({ eventType: type })).map((e) => e.entity_id)).toContain(app.client_id);
  });

  it('sets and clears headless consent for an existing user only', async () => {
    await emu.admin.users.create({
      email: 'ci@example.com',
      given_name: 'C',
      family_name: 'I',
      password: 'ci password',
    });
    expect(
      (await post('/_emulator/oauth/auto_consent', { user: 'nobody@example.com', decision: 'allow' })).status,
    ).toBe(400);
    expect(
      (await post('/_emulator/oauth/auto_consent', { user: 'ci@example.com', decision: 'maybe' })).status,
    ).toBe(400);
    expect(
      (await post('/_emulator/oauth/auto_consent', { user: 'ci@example.com', decision: 'allow' })).status,
    ).toBe(200);
    const read = await fetch(`${emu.url}/_emulator/oauth/auto_consent`, {
      headers: { authorization: `Bearer ${emu.adminKey}` },
    });
    expect(((await read.json()) as { value: unknown }).value).toEqual({
      user: 'ci@example.com',
      decision: 'allow',
    });
    await emu.admin.autoConsent({ decision: null });
  });
});
