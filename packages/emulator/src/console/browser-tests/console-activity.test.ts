/**
 * The console's events, event subscriptions and notification templates pages in a real headless
 * Chromium: filter events and follow new ones as they arrive; create, evaluate and delete a
 * subscription to a real HTTP receiver; edit a template with its rendered preview, save it, send a
 * test message to a real SMTP server, and revert to the default.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessPayload } from '../../private-test-helpers/access-payload.js';
import { launchBrowser, screenshot, signIn } from '../../private-test-helpers/browser.js';
import { useEmulator, type Harness } from '../../private-test-helpers/harness.js';
import { startSmtpSink, type SmtpSink } from '../../private-test-helpers/smtp-sink.js';

let browser: Browser;
let sink: SmtpSink;
beforeAll(async () => {
  browser = await launchBrowser();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await browser?.close();
  await sink?.close();
});

async function open(h: Harness, path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('dialog', (d) => void d.accept());
  await signIn(page, { url: h.emu.url, adminKey: h.emu.adminKey, path });
  await page.locator('main[data-ready]').waitFor();
  return page;
}

describe('console activity pages', () => {
  const options = { smtp: { host: '127.0.0.1', port: 0 } };
  beforeAll(() => {
    options.smtp.port = sink.port;
  });
  const h = useEmulator(options);

  it('filters events and follows new ones as they arrive', async () => {
    const t = await h().target();
    expect(
      (await h().push(t.base, accessPayload({ users: 2, groups: 1, roles: 1, resources: 1 }))).status,
    ).toBe(200);
    const page = await open(h(), '/console/events');
    const rows = page.locator('table.events tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    const all = await rows.count();

    await page.getByLabel('Event type').fill('OAA_PUSH');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('OAA_PUSH');
    expect(all).toBeGreaterThan(1);

    await page.getByLabel('Follow new events').check();
    expect(
      (await h().push(t.base, accessPayload({ users: 3, groups: 1, roles: 1, resources: 1 }))).status,
    ).toBe(200);
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
    // Newest first, and only what the filter matches.
    expect(await page.locator('table.events tbody tr td:nth-child(4)').allTextContents()).toEqual([
      'OAA_PUSH',
      'OAA_PUSH',
    ]);
    await screenshot(page, 'events');
    await page.close();
  });

  it('creates a subscription to a webhook, evaluates it and deletes it', async () => {
    const received: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const page = await open(h(), '/console/subscriptions');
      await page.getByLabel('Webhook hosts').fill(`127.0.0.1:${port}`);
      await page.getByRole('button', { name: 'Save allowlist' }).click();
      await expect
        .poll(async () => (await h().call('GET', '/_emulator/allowlist')).body.webhook_hosts)
        .toEqual([`127.0.0.1:${port}`]);

      await page.getByLabel('Name', { exact: true }).fill('push warnings');
      await page.getByLabel('Event types').fill('OAA_PUSH');
      await page.getByLabel('WARNING').check();
      await page.getByLabel('Destination').selectOption('CUSTOM_WEBHOOK');
      await page.getByLabel('URL or recipients').fill(`http://127.0.0.1:${port}/hook`);
      await page.getByRole('button', { name: 'Create subscription' }).click();
      const row = page.getByRole('row', { name: /push warnings/ });
      await row.waitFor();
      const stored = (await h().call('GET', '/_emulator/subscriptions')).body.values;
      expect(stored).toMatchObject([
        { name: 'push warnings', filter: { event_types: ['OAA_PUSH'], severities: ['WARNING'] } },
      ]);

      // A push with warnings, then "Evaluate now" delivers it to the receiver.
      const t = await h().target();
      expect(
        (await h().push(t.base, accessPayload({ users: 1, groups: 1, roles: 1, resources: 1 }))).status,
      ).toBe(200);
      await row.getByRole('button', { name: 'Evaluate push warnings now' }).click();
      await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('SENT');
      expect(received.join('\n')).toContain('OAA_PUSH');
      await screenshot(page, 'subscriptions');

      await row.getByRole('button', { name: 'Delete push warnings' }).click();
      await expect.poll(() => page.getByRole('row', { name: /push warnings/ }).count()).toBe(0);
      expect((await h().call('GET', '/_emulator/subscriptions')).body.values).toEqual([]);
      await page.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('edits a template with a rendered preview, saves it, sends a test message and reverts', async () => {
    const page = await open(h(), '/console/templates');
    await page.getByRole('button', { name: 'Edit ACCESS_WORKFLOW_STARTED' }).click();
    await page.getByLabel('Subject').fill('Please review {{review_name}} by {{due_date}}');
    await page
      .getByLabel('Body (HTML)')
      .fill(
        '<h1 style="color:#1d4ed8">Hello {{recipient_name}}</h1><p>{{review_name}} is waiting for you.</p>',
      );
    const subject = page.getByTestId('preview-subject');
    await expect
      .poll(() => subject.textContent())
      .toMatch(/^Subject: Please review .+ by \d{4}-\d{2}-\d{2}$/);
    const frame = page.frameLocator('iframe.preview');
    await expect.poll(() => frame.locator('h1').textContent()).toMatch(/^Hello \S/);
    expect(await frame.locator('h1').textContent()).not.toContain('{{');
    await screenshot(page, 'templates');
    const renderedSubject = (await subject.textContent())?.replace('Subject: ', '');

    await page.getByRole('button', { name: 'Save as custom template' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /ACCESS_WORKFLOW_STARTED/ }).textContent())
      .toContain('custom');
    const list = (await h().call('GET', '/api/preview/notifications/email_templates')).body.values;
    const saved = list.find((t: { usage: string }) => t.usage === 'ACCESS_WORKFLOW_STARTED');
    expect(saved).toMatchObject({
      is_default: false,
      subject_template: 'Please review {{review_name}} by {{due_date}}',
    });

    const before = sink.received.length;
    await page.getByLabel('Test recipient').fill('reviewer@example.com');
    await page.getByRole('button', { name: 'Send test message' }).click();
    const mails = await sink.waitFor(before + 1);
    const mail = mails[mails.length - 1]!;
    expect(mail.envelopeTo).toEqual(['reviewer@example.com']);
    expect(mail.mail.subject).toBe(renderedSubject);

    await page.getByRole('button', { name: 'Revert to default' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /ACCESS_WORKFLOW_STARTED/ }).textContent())
      .toContain('default');
    await page.close();
  });
});
