/**
 * A real headless Chromium for the console's browser tests: Debian's `chromium` (installed by
 * scripts/setup-system.sh) driven by playwright-core, started and stopped by the test.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** The Chromium executable: `CHROMIUM_PATH`, or Debian's. */
export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, ...CANDIDATES].find(
    (p) => p !== undefined && p !== '' && existsSync(p),
  );
  if (found === undefined)
    throw new Error(
      'no Chromium found: run scripts/setup-system.sh (apt-get install chromium) or set CHROMIUM_PATH',
    );
  return found;
}

/** Launches headless Chromium; close it after the test. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** Where screenshots go when `OAA_CONSOLE_SCREENSHOTS` is set (npm run screenshots -w @oaakit/emulator). */
const SHOTS = new URL('../../../../docs/console/', import.meta.url);

/**
 * Saves a screenshot of `page` as docs/console/<name>.png when `OAA_CONSOLE_SCREENSHOTS=1`, so an
 * ordinary test run leaves the committed pictures alone. Secrets shown once (`.secret`) are masked:
 * no key or client secret ends up in a committed picture.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.OAA_CONSOLE_SCREENSHOTS !== '1') return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({
    path: new URL(`${name}.png`, SHOTS).pathname,
    mask: [page.locator('.secret')],
    maskColor: '#fde68a',
  });
}

/** A console user for browser tests. */
export const CONSOLE_USER = {
  email: 'ada@example.com',
  given_name: 'Ada',
  family_name: 'Lovelace',
  password: 'correct horse battery staple',
};

/**
 * Creates {@link CONSOLE_USER} with the admin key (`/_emulator/users`), then signs in through the
 * sign-in page in `page`, as a person would, landing on `path`.
 */
export async function signIn(
  page: Page,
  options: { url: string; adminKey: string; path: string; screenshot?: string },
): Promise<void> {
  const res = await fetch(`${options.url}/_emulator/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(CONSOLE_USER),
  });
  if (!res.ok) throw new Error(`POST /_emulator/users: ${res.status} ${await res.text()}`);
  await page.goto(options.url + options.path);
  await page.getByLabel('Email').fill(CONSOLE_USER.email);
  await page.getByLabel('Password').fill(CONSOLE_USER.password);
  if (options.screenshot !== undefined) await screenshot(page, options.screenshot);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === options.path.split('?')[0]);
}
