/**
 * The console's pages in a real headless Chromium, signed in through the sign-in page: providers
 * and data sources after a push, API keys created (shown once) and revoked; and the console's
 * access rules over plain HTTP (no session, no CSRF token).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../../testing/console-session.js';
import { accessPayload } from '../../private-test-helpers/access-payload.js';
import { CONSOLE_USER, launchBrowser, screenshot, signIn } from '../../private-test-helpers/browser.js';
import { useEmulator, type Harness } from '../../private-test-helpers/harness.js';

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0284c7"/><path d="M8 22 L16 8 L24 22 Z" fill="#fff"/></svg>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(h: Harness, path: string, signInShot?: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signIn(page, {
    url: h.emu.url,
    adminKey: h.emu.adminKey,
    path,
    ...(signInShot ? { screenshot: signInShot } : {}),
  });
  await page.locator('main[data-ready]').waitFor();
  return page;
}

describe('console pages', () => {
  const h = useEmulator();

  it('lists providers with their icon, and data sources with status, last push and warnings', async () => {
    const p = await h().provider('Acme HR');
    await h().call('POST', `/api/v1/providers/custom/${p.id}:icon`, {
      icon_base64: Buffer.from(ICON).toString('base64'),
    });
    const pushed = await h().dataSource(p.id, 'production');
    const base = `/api/v1/providers/custom/${p.id}/datasources/${pushed.id}`;
    const answer = await h().push(base, accessPayload({ users: 3, groups: 2, roles: 2, resources: 2 }));
    expect(answer.status).toBe(200);
    const warnings = (answer.body.warnings as { message: string }[]).map((w) => w.message);
    expect(warnings.length).toBeGreaterThan(0);
    await h().dataSource(p.id, 'staging');

    const page = await open(h(), '/console/providers', 'sign-in');
    const section = page.getByRole('region', { name: /Acme HR/ });
    // The icon comes through the API (GET .../{id}:icon) after the page is drawn.
    await expect
      .poll(() =>
        section
          .locator('img.icon')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    const production = section.getByRole('row', { name: /production/ });
    expect(await production.getByRole('cell').nth(0).textContent()).toBe('SUCCESS');
    expect(await production.getByRole('cell').nth(1).textContent()).not.toBe('—');
    await production.getByText(`${warnings.length} warning`).click();
    expect(await production.locator('li').allTextContents()).toEqual(warnings);
    const staging = section.getByRole('row', { name: /staging/ });
    expect(await staging.getByRole('cell').nth(0).textContent()).toBe('PENDING');
    expect(await staging.getByRole('cell').nth(1).textContent()).toBe('—');
    await screenshot(page, 'providers');
    await page.close();
  });

  it('creates an API key shown once that works; revoke, reinstate and delete act on it at once', async () => {
    const page = await open(h(), '/console/api-keys');
    await page.getByLabel('Name').fill('ci pipeline');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(key).toMatch(/^oaa_emu_/);
    const providers = (k: string): Promise<number> =>
      h()
        .call('GET', '/api/v1/providers/custom', undefined, { key: k })
        .then((r) => r.status);
    expect(await providers(key)).toBe(200);
    const row = page.getByRole('row', { name: /ci pipeline/ });
    expect(await row.textContent()).toContain(key.slice(0, 8));
    await screenshot(page, 'api-keys');

    // Shown once: a reload lists the key by its prefix only.
    await page.reload();
    await page.locator('main[data-ready]').waitFor();
    expect(await page.locator('main').textContent()).not.toContain(key);

    page.on('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke ci pipeline' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /ci pipeline/ }).textContent())
      .toContain('revoked');
    expect(await providers(key)).toBe(401);
    await page.getByRole('button', { name: 'Reinstate ci pipeline' }).click();
    await expect.poll(() => page.getByRole('row', { name: /ci pipeline/ }).textContent()).toContain('active');
    expect(await providers(key)).toBe(200);
    await page.getByRole('button', { name: 'Delete ci pipeline' }).click();
    await expect.poll(() => page.getByRole('row', { name: /ci pipeline/ }).count()).toBe(0);
    expect(await providers(key)).toBe(401);
    await page.close();
  });

  it('works from the keyboard alone: skip link, labelled fields, Enter submits, named buttons', async () => {
    const page = await open(h(), '/console/api-keys');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.id')).toBe('key-name');
    await page.keyboard.type('typed key');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.id')).toBe('key-role');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('row', { name: /typed key/ }).textContent()).toContain('admin');
    expect(await page.getByTestId('new-key').textContent()).toMatch(/^oaa_emu_/);
    await page.close();
  });

  it('hands the session’s CSRF token to its own pages, not to a page on another port of the host', async () => {
    // Another origin of the same site: a page on another port of 127.0.0.1, served by this test.
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>another local server</title>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const page = await open(h(), '/console/providers');
      const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
      const own = await page.evaluate(async () => {
        const r = await fetch('/console/session');
        return { status: r.status, token: ((await r.json()) as { csrf_token: string }).csrf_token };
      });
      expect(own).toEqual({ status: 200, token });

      const { port } = other.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
      const url = `${h().emu.url}/console/session`;
      const [answer] = await Promise.all([
        page.waitForResponse(url),
        page.evaluate(
          (u) => fetch(u, { credentials: 'include', mode: 'no-cors' }).then(() => undefined),
          url,
        ),
      ]);
      // A 403, not the sign-in redirect a request without a session gets: the browser sent the
      // session cookie (cookies are kept by host, not by port), and the token stayed home.
      expect(answer.status()).toBe(403);
      await page.close();
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('sends visitors without a session to sign in; the API takes a session only with its CSRF token', async () => {
    const url = h().emu.url;
    const page = await fetch(`${url}/console/api-keys`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console/login?next=%2Fconsole%2Fapi-keys');
    expect(
      (await fetch(`${url}/_emulator/api_keys`, { method: 'POST', headers: { 'x-csrf-token': 'x' } })).status,
    ).toBe(401);
    // The bundle is public (the sign-in page may use it) and holds no data.
    expect((await fetch(`${url}/console/assets/app.js`)).status).toBe(200);

    await h().call('POST', '/_emulator/users', CONSOLE_USER);
    const session = await signInToConsole({
      url,
      email: CONSOLE_USER.email,
      password: CONSOLE_USER.password,
    });
    const create = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${url}/_emulator/api_keys`, {
        method: 'POST',
        headers: { cookie: session.cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'from a script' }),
      });
    // The cookie alone (what a cross-site form or link sends) reaches nothing under the API.
    expect((await create({})).status).toBe(401);
    expect((await create({ 'x-csrf-token': 'guessed' })).status).toBe(401);
    const read = await fetch(`${url}/_emulator/api_keys`, { headers: { cookie: session.cookie } });
    expect(read.status).toBe(401);
    const made = await create({ 'x-csrf-token': session.csrfToken });
    expect(made.status).toBe(200);
    expect(((await made.json()) as { value: { name: string } }).value.name).toBe('from a script');
    // A key still decides alone when one is sent: a member key is no admin, session or not.
    const member = await create({
      'x-csrf-token': session.csrfToken,
      authorization: `Bearer ${(await h().call('POST', '/_emulator/api_keys', { role: 'member' })).body.value.key}`,
    });
    expect(member.status).toBe(403);
    const shell = await fetch(`${url}/console/providers`, { headers: { cookie: session.cookie } });
    expect(shell.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await shell.text()).toContain('<main id="main"');
  });
});
