/**
 * The client's email-template, access-request and configuration methods against the emulator over
 * HTTP, with an admin key (the emulator's writes need one) and with a member key.
 */
import { NOTIFICATION_USAGES } from '@oaakit/core';
import { startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../client.js';
import { ServiceError } from '../errors.js';

let emu: TestEmulator;
let client: Client;
beforeEach(async () => {
  emu = await startTestEmulator({ role: 'admin' });
  client = createClient({ url: emu.url, apiKey: emu.apiKey, retry: { minDelayMs: 1, maxDelayMs: 5 } });
});
afterEach(() => emu?.close());

const template = {
  name: 'Kick-off',
  usage: 'ACCESS_WORKFLOW_STARTED' as const,
  subject_template: 'Review {{review_name}}',
  body_template_base64: Buffer.from('<p>Hello {{recipient_name}}</p>').toString('base64'),
};

describe('client.emailTemplates', () => {
  it('lists the defaults, creates, gets, updates and deletes a custom template', async () => {
    const before = await client.emailTemplates.list();
    expect(before.map((t) => t.usage)).toEqual([...NOTIFICATION_USAGES]);
    const created = await client.emailTemplates.create(template);
    expect(created).toMatchObject({ ...template, is_default: false });
    const id = created.id!;
    expect(await client.emailTemplates.get(id)).toEqual(created);
    // A template read back (with is_default and times) can be sent back as it is.
    const read = await client.emailTemplates.get(id);
    const updated = await client.emailTemplates.update(id, {
      ...read,
      subject_template: 'Now: {{review_name}}',
    });
    expect(updated.subject_template).toBe('Now: {{review_name}}');
    await client.emailTemplates.delete(id);
    await expect(client.emailTemplates.get(id)).rejects.toMatchObject({ status: 404, code: 'NotFound' });
    const after = await client.emailTemplates.list();
    expect(after.find((t) => t.usage === template.usage)?.is_default).toBe(true);
  });

  it('surfaces the field violations of a refused template', async () => {
    const err: unknown = await client.emailTemplates
      .create({ ...template, usage: 'NOT_A_USAGE' as never })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).violations).toEqual([
      { field: 'value.usage', description: expect.stringContaining('must be one of') },
    ]);
  });

  it('sends a test once and reports that the emulator has no SMTP server', async () => {
    const err: unknown = await client.emailTemplates.test({ template }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, message: expect.stringContaining('no SMTP server') });
    const calls = await emu.admin.calls.list({
      method: 'POST',
      path: '/api/preview/notifications/email_templates:test_template',
    });
    expect(calls).toHaveLength(1);
  });
});

describe('client.accessRequests', () => {
  it('patches the settings, merging, and reads them back', async () => {
    await client.accessRequests.updateSettings({
      enabled: true,
      admin_approval_settings: { allow_approval_on_request: true, grant_without_approval: false },
    });
    const merged = await client.accessRequests.updateSettings({
      admin_approval_settings: { grant_without_approval: true },
    });
    expect(merged).toEqual({
      enabled: true,
      admin_approval_settings: { allow_approval_on_request: true, grant_without_approval: true },
    });
    expect(await client.accessRequests.getSettings()).toEqual(merged);
  });
});

describe('client.configurations', () => {
  it('sets and reads the last-login matching property', async () => {
    expect(await client.configurations.getSsoUserMatchingProperty()).toBeUndefined();
    await client.configurations.setSsoUserMatchingProperty('email');
    expect(await client.configurations.getSsoUserMatchingProperty()).toBe('email');
    expect(await client.configurations.list()).toEqual([
      { key: 'idp_sso_user_matching_property', value: 'email' },
    ]);
  });

  it('is refused to a member key', async () => {
    const member = createClient({
      url: emu.url,
      apiKey: (await emu.admin.apiKeys.create({ role: 'member' })).key,
      retry: false,
    });
    await expect(member.configurations.setSsoUserMatchingProperty('email')).rejects.toMatchObject({
      status: 403,
    });
    await expect(member.accessRequests.updateSettings({ enabled: true })).rejects.toMatchObject({
      status: 403,
    });
  });
});
