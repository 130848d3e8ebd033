/**
 * `oaa notifications templates list|get|set|delete|test` and `oaa settings access-requests get|set`
 * through the built binary, against an emulator started by the test on port 0 that sends mail to a
 * real SMTP server (the emulator's SMTP sink: smtp-server + mailparser).
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '@oaakit/emulator';
import type { RunningEmulator } from '@oaakit/emulator';
// The emulator's SMTP sink for tests (not part of its published test kit).
import { startSmtpSink, type SmtpSink } from '../../../emulator/src/private-test-helpers/smtp-sink.js';
import type { ErrorJson } from '../output/render-error.js';
import { json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

const apiKey = `oaa_cli_test_${randomBytes(16).toString('hex')}`;
let emulator: RunningEmulator;
let sink: SmtpSink;
let work: { dir: string; remove: () => Promise<void> };

function run(args: string[]): Promise<OaaResult> {
  return oaa(args, { env: { OAA_URL: emulator.url, OAA_API_KEY: apiKey }, cwd: work.dir });
}

interface Template {
  id: string;
  name: string;
  usage: string;
  subject_template: string;
  body_template_base64: string;
  is_default: boolean;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  emulator = await startEmulator({
    port: 0,
    apiKeys: [{ key: apiKey, role: 'admin' }],
    smtp: { host: sink.host, port: sink.port },
  });
  work = await tempDir('oaa-cli-notifications-');
});

afterAll(async () => {
  await emulator.close();
  await sink.close();
  await work.remove();
});

// Every step is a `node` process; on a loaded 2-core machine one takes seconds.
describe('oaa notifications templates', { timeout: 180_000 }, () => {
  it('lists the defaults, sets a custom template from a file, tests it by mail, and deletes it', async () => {
    const listed = json<Template[]>(await run(['notifications', 'templates', 'list', '--json']));
    expect(listed).toHaveLength(12);
    expect(listed.every((t) => t.is_default)).toBe(true);
    const table = await run(['notifications', 'templates', 'list']);
    expect(table.stdout).toMatch(/default_assessment_rule +ASSESSMENT_RULE +Default: ASSESSMENT_RULE +yes/);

    const html = join(work.dir, 'kickoff.html');
    await writeFile(html, '<p>Hello {{recipient_name}}, please review <b>{{review_name}}</b>.</p>');
    const set = await run([
      'notifications',
      'templates',
      'set',
      'access_workflow_started',
      '--subject',
      'Please review {{review_name}}',
      '--body-file',
      html,
      '--json',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const custom = json<Template>(set);
    expect(custom).toMatchObject({
      usage: 'ACCESS_WORKFLOW_STARTED',
      name: 'Custom: ACCESS_WORKFLOW_STARTED',
      subject_template: 'Please review {{review_name}}',
      is_default: false,
    });

    const renamed = await run([
      'notifications',
      'templates',
      'set',
      'ACCESS_WORKFLOW_STARTED',
      '--name',
      'Kick-off',
    ]);
    expect(renamed.stdout.trim()).toBe(
      `Updated the custom template of ACCESS_WORKFLOW_STARTED (${custom.id}).`,
    );
    const got = await run(['notifications', 'templates', 'get', custom.id]);
    expect(got.stdout).toMatch(/^name: +Kick-off$/m);
    expect(got.stdout).toMatch(/^subject: +Please review \{\{review_name\}\}$/m);
    expect(got.stdout).toContain('<b>{{review_name}}</b>');

    const before = sink.received.length;
    const test = await run([
      'notifications',
      'templates',
      'test',
      'ACCESS_WORKFLOW_STARTED',
      '--to',
      'me@example.com',
    ]);
    expect(test.code, test.stderr).toBe(0);
    expect(test.stdout).toContain('Sent a test of ACCESS_WORKFLOW_STARTED to me@example.com.');
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail!.envelopeTo).toEqual(['me@example.com']);
    expect(mail!.mail.subject).toBe('Please review Q4 access review: Finance & Payroll');
    expect(mail!.mail.html).toContain('please review <b>Q4 access review: Finance &amp; Payroll</b>');

    const deleted = await run(['notifications', 'templates', 'delete', 'ACCESS_WORKFLOW_STARTED', '--json']);
    expect(json(deleted)).toEqual({ usage: 'ACCESS_WORKFLOW_STARTED', deleted: custom.id });
    const again = await run(['notifications', 'templates', 'delete', 'ACCESS_WORKFLOW_STARTED']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('uses its default template already');
    const back = json<Template>(
      await run(['notifications', 'templates', 'get', 'ACCESS_WORKFLOW_STARTED', '--json']),
    );
    expect(back).toMatchObject({ id: 'default_access_workflow_started', is_default: true });
    expect(test.stdout + test.stderr + set.stdout + set.stderr).not.toContain(apiKey);
  });

  it('exits 7 for an unknown template, 64 for an unknown usage or nothing to set, 2 naming the field', async () => {
    const missing = await run(['notifications', 'templates', 'get', 'no-such-template']);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toContain('no email template with id or usage "no-such-template"');
    expect((await run(['notifications', 'templates', 'set', 'NOT_A_USAGE', '--name', 'x'])).code).toBe(64);
    const nothing = await run(['notifications', 'templates', 'set', 'ASSESSMENT_RULE']);
    expect(nothing.code).toBe(64);
    expect(nothing.stderr).toContain('nothing to set');
    const text = join(work.dir, 'plain.txt');
    await writeFile(text, 'no html at all');
    const refused = await run([
      'notifications',
      'templates',
      'set',
      'ASSESSMENT_RULE',
      '--body-file',
      text,
      '--json',
    ]);
    expect(refused.code).toBe(2);
    expect(json<{ error: ErrorJson }>(refused).error.violations).toEqual([
      { field: 'value.body_template_base64', description: expect.stringContaining('no HTML tag') },
    ]);
  });

  it('documents each command with examples', async () => {
    for (const command of ['list', 'get', 'set', 'delete', 'test']) {
      const help = await run(['notifications', 'templates', command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`$ oaa notifications templates ${command}`);
    }
  });
});

describe('oaa settings access-requests', { timeout: 180_000 }, () => {
  it('sets fields from a file and a flag, merging, and reads them back', async () => {
    const file = join(work.dir, 'approvals.json');
    await writeFile(
      file,
      JSON.stringify({
        admin_approval_settings: { allow_approval_on_request: true, grant_without_approval: false },
        deny_requesters: ['contractor@example.com'],
      }),
    );
    const first = await run(['settings', 'access-requests', 'set', '--file', file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const second = await run(['settings', 'access-requests', 'set', '--enabled', '--json']);
    expect(json(second)).toEqual({
      admin_approval_settings: { allow_approval_on_request: true, grant_without_approval: false },
      deny_requesters: ['contractor@example.com'],
      enabled: true,
    });
    const shown = await run(['settings', 'access-requests', 'get']);
    expect(JSON.parse(shown.stdout)).toEqual(json(second));
  });

  it('exits 2 naming an unknown key, and 64 with nothing to set', async () => {
    const file = join(work.dir, 'typo.json');
    await writeFile(file, JSON.stringify({ enabeld: true }));
    const refused = await run(['settings', 'access-requests', 'set', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('enabeld');
    expect((await run(['settings', 'access-requests', 'set'])).code).toBe(64);
    for (const command of ['get', 'set']) {
      const help = await run(['settings', 'access-requests', command, '--help']);
      expect(help.stdout).toContain(`$ oaa settings access-requests ${command}`);
    }
  });
});
