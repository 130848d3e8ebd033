/**
 * The graph explorer in a real headless Chromium: push a payload, open the explorer on its data
 * source, pick an identity and read what it reaches and through what; and a 10,000-node graph
 * that still answers search and picking.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessPayload } from '../../private-test-helpers/access-payload.js';
import { launchBrowser, screenshot, signIn } from '../../private-test-helpers/browser.js';
import { useEmulator, type Harness } from '../../private-test-helpers/harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function pushed(h: Harness, size: Parameters<typeof accessPayload>[0]): Promise<string> {
  const t = await h.target();
  const answer = await h.push(t.base, accessPayload(size), { gzip: true });
  expect(answer.status).toBe(200);
  return t.dataSourceId;
}

async function openExplorer(h: Harness, dataSourceId: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signIn(page, {
    url: h.emu.url,
    adminKey: h.emu.adminKey,
    path: `/console/graph?data_source_id=${dataSourceId}`,
  });
  await page.locator('canvas.graph[data-nodes]').waitFor();
  return page;
}

describe('graph explorer', () => {
  const h = useEmulator();

  it('shows what an identity reaches and through what, after a push', async () => {
    const dataSourceId = await pushed(h(), { users: 20, groups: 5, roles: 3, resources: 8 });
    const page = await openExplorer(h(), dataSourceId);
    const nodes = Number(await page.locator('canvas.graph').getAttribute('data-nodes'));
    const stats = await h().call('GET', `/_emulator/graph/stats?data_source_id=${dataSourceId}`);
    expect(nodes).toBe(Object.values(stats.body.nodes as Record<string, number>).reduce((a, b) => a + b, 0));

    await page.getByLabel('Find').fill('bob');
    await page.getByLabel('Find').press('Enter');
    await expect.poll(() => page.getByTestId('selected').textContent()).toBe('bob (OAA.acme.User)');
    const summary = page.getByTestId('reach-summary');
    await expect.poll(() => summary.textContent()).toContain('1 groups');
    expect(await summary.textContent()).toContain('1 roles');
    const paths = await page.locator('.reach .paths .path').allTextContents();
    expect(paths).toContain(
      'bob → member of engineering → has role maintainer → role has permission read → applies on repo-0',
    );
    expect(paths).toContain(
      'bob → member of engineering → has role maintainer → role has permission write → applies on repo-0',
    );
    // carol's finance group is not bob's: nothing of it is reached.
    expect(await page.locator('.reach').textContent()).not.toContain('auditor');
    await screenshot(page, 'graph-explorer');

    // Picking a reached node on the list says how it is reached.
    await page.locator('.paths button', { hasText: 'repo-0' }).first().click();
    await expect.poll(() => page.getByTestId('selected').textContent()).toContain('repo-0');
    expect(await page.locator('.details').textContent()).toContain('Reached through:');
    expect(await page.locator('.details li').allTextContents()).toEqual([
      'bob → member of engineering → has role maintainer → role has permission read → applies on repo-0',
      'bob → member of engineering → has role maintainer → role has permission write → applies on repo-0',
    ]);
    await page.close();
  });

  it('draws a 10,000-node graph and still answers search and picking', async () => {
    const dataSourceId = await pushed(h(), { users: 7000, groups: 300, roles: 40, resources: 2700 });
    const page = await openExplorer(h(), dataSourceId);
    expect(Number(await page.locator('canvas.graph').getAttribute('data-nodes'))).toBeGreaterThanOrEqual(
      10_000,
    );
    await screenshot(page, 'graph-explorer-whole');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.locator('canvas.graph').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('-');
    await page.getByLabel('Find').fill('user-4242');
    await page.getByRole('button', { name: 'user-4242 (OAA.acme.User)' }).click();
    // user-4242 is in group-42 (role-2 on repo-42 and repo-547) and group-294 (role-14 on repo-294
    // and repo-1123): what others hold role-2 or role-14 on is not lent to it.
    await expect
      .poll(() => page.getByTestId('reach-summary').textContent())
      .toBe('2 groups, 2 roles, 2 permissions, 4 resources');
    const reached = (await page.locator('.paths li button').allTextContents()).filter((t) =>
      t.startsWith('repo-'),
    );
    expect(reached.map((t) => t.split(' ')[0]).sort()).toEqual([
      'repo-1123',
      'repo-294',
      'repo-42',
      'repo-547',
    ]);
    await screenshot(page, 'graph-explorer-10k');
    await page.close();
  });
});
