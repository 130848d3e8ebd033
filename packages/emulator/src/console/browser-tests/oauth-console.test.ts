/**
 * The OAuth2 apps page in a real headless Chromium. Sign in, register an app,
 * rotate its secret, complete the PKCE flow through the consent page (the redirect lands on a real
 * HTTP receiver, the code is exchanged with fetch), use the token, revoke the app in the console
 * and see the token fail.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pkceChallenge } from '@oaakit/core';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_USER, launchBrowser, screenshot, signIn } from '../../private-test-helpers/browser.js';
import { useEmulator } from '../../private-test-helpers/harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A real HTTP receiver for the redirect: answers a page and hands over the query it received. */
async function redirectReceiver(): Promise<{
  url: string;
  next: Promise<URLSearchParams>;
  close(): Promise<void>;
}> {
  let deliver: (q: URLSearchParams) => void = () => {};
  const next = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Signed in</title><p>You can close this window.');
    if (url.pathname === '/callback') deliver(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    next,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

describe('OAuth2 apps in the console', () => {
  const h = useEmulator();
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('registers an app, rotates its secret, signs in through consent with PKCE, and revokes it', async () => {
    const emu = h().emu;
    const receiver = await redirectReceiver();
    closers.push(() => receiver.close());
    const redirectUri = `${receiver.url}/callback`;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('dialog', (d) => void d.accept());
    await signIn(page, { url: emu.url, adminKey: emu.adminKey, path: '/console/oauth-apps' });
    await page.locator('main[data-ready]').waitFor();

    // Register.
    await page.getByLabel('Client name').fill('Reporting tool');
    await page.getByLabel('Base URL').fill(receiver.url);
    await page.getByLabel('Redirect URIs').fill(redirectUri);
    await page.getByLabel('profile', { exact: true }).check();
    await page.getByLabel('oaa:integrations').check();
    await page.getByRole('button', { name: 'Create app' }).click();
    const clientId = (await page.getByTestId('client-id').textContent()) ?? '';
    const first = (await page.getByTestId('client-secret').textContent()) ?? '';
    expect(first).not.toBe('');
    const card = page.getByRole('region', { name: /Reporting tool/ });
    await card.getByText(clientId).waitFor();

    // Rotate: a second secret, then the first one goes.
    await card.getByRole('button', { name: 'New secret for Reporting tool' }).click();
    await expect.poll(() => card.locator('table.secrets tbody tr').count()).toBe(2);
    const second = (await page.getByTestId('client-secret').textContent()) ?? '';
    expect(second).not.toBe(first);
    expect(await card.getByRole('button', { name: 'New secret for Reporting tool' }).isDisabled()).toBe(true);
    await card
      .getByRole('button', { name: `Delete secret 1 (${first.slice(0, 4)}…) of Reporting tool` })
      .click();
    await expect.poll(() => card.locator('table.secrets tbody tr').count()).toBe(1);
    await screenshot(page, 'oauth-apps');

    // The PKCE flow through the consent page, in the signed-in browser.
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    const authorize = new URL('/oauth/authorize', emu.url);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'profile oaa:integrations',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      authorize.searchParams.set(k, v);
    await page.goto(authorize.toString());
    expect(await page.locator('main').textContent()).toContain('Reporting tool');
    await screenshot(page, 'consent');
    await page.locator('button[name="decision"][value="allow"]').click();
    const query = await receiver.next;
    expect(query.get('state')).toBe(state);
    const code = query.get('code') ?? '';

    const token = async (form: Record<string, string>): Promise<Response> =>
      fetch(`${emu.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
    const exchanged = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
      client_secret: second,
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const me = await fetch(`${emu.url}/oauth/userinfo`, { headers: bearer });
    expect(((await me.json()) as { email: string }).email).toBe(CONSOLE_USER.email);
    expect((await fetch(`${emu.url}/api/v1/providers/custom`, { headers: bearer })).status).toBe(200);
    // The deleted first secret no longer authenticates the client.
    const stale = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      client_secret: first,
    });
    expect(((await stale.json()) as { error: string }).error).toBe('invalid_client');

    // Revoke in the console: the token fails at its next use.
    await page.goto(`${emu.url}/console/oauth-apps`);
    await page.locator('main[data-ready]').waitFor();
    await card.getByRole('button', { name: 'Revoke Reporting tool' }).click();
    await expect.poll(() => card.locator('.status').textContent()).toBe('REVOKED');
    expect((await fetch(`${emu.url}/api/v1/providers/custom`, { headers: bearer })).status).toBe(401);
    expect((await fetch(`${emu.url}/oauth/userinfo`, { headers: bearer })).status).toBe(401);
    await page.close();
  });
});
