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
 * ordinary test run leaves the committed pictures alone.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.OAA_CONSOLE_SCREENSHOTS !== '1') return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: false });
}
