/**
 * Email notification templates over HTTP: the shipped defaults, create / get / update / delete with
 * one custom template per usage, validation naming the field, and `:test_template` delivering the
 * rendered message to a real SMTP server (smtp-server, parsed with mailparser).
 */
import { NOTIFICATION_USAGES } from '@oaakit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../private-test-helpers/smtp-sink.js';
import { useEmulator, values, violations, type Answer } from '../private-test-helpers/harness.js';

const BASE = '/api/preview/notifications/email_templates';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

interface Template {
  id: string;
  name: string;
  subject_template: string;
  body_template_base64: string;
  usage: string;
  is_default: boolean;
}

const custom = {
  name: 'Review kick-off',
  subject_template: 'Please review {{review_name}} by {{due_date}}',
  body_template_base64: b64('<p>Hi {{recipient_name}}, review <b>{{review_name}}</b>.</p>'),
  usage: 'ACCESS_WORKFLOW_STARTED',
};

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

describe('email notification templates', () => {
  const h = useEmulator();
  const list = async (): Promise<Template[]> => values<Template>(await h().call('GET', BASE));
  const create = (value: unknown): Promise<Answer> => h().call('POST', BASE, { value });

  it('lists one default per usage value of the spec, readable by id', async () => {
    const all = await list();
    expect(all.map((t) => t.usage)).toEqual([...NOTIFICATION_USAGES]);
    expect(all.every((t) => t.is_default)).toBe(true);
    const rule = all.find((t) => t.usage === 'ASSESSMENT_RULE')!;
    expect(rule.id).toBe('default_assessment_rule');
    expect(rule.subject_template).toContain('{{rule_name}}');
    expect(Buffer.from(rule.body_template_base64, 'base64').toString()).toContain('<html>');
    const got = await h().call('GET', `${BASE}/${rule.id}`);
    expect(got.body.value).toEqual(rule);
  });

  it('creates, reads, updates and deletes a custom template; deleting reverts to the default', async () => {
    const created = await create(custom);
    expect(created.status).toBe(200);
    const t = created.body.value as Template;
    expect(t).toMatchObject({ ...custom, is_default: false });
    expect(t.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await list()).find((x) => x.usage === custom.usage)).toEqual(t);
    expect((await h().call('GET', `${BASE}/${t.id}`)).body.value).toEqual(t);

    const put = await h().call('PUT', `${BASE}/${t.id}`, {
      value: { ...custom, id: t.id, subject_template: 'Review {{review_name}} now' },
    });
    expect(put.status).toBe(200);
    expect(put.body.value).toMatchObject({ id: t.id, subject_template: 'Review {{review_name}} now' });
    expect((await h().call('GET', `${BASE}/${t.id}`)).body.value.subject_template).toBe(
      'Review {{review_name}} now',
    );

    expect((await h().call('DELETE', `${BASE}/${t.id}`)).body).toEqual({});
    expect((await h().call('GET', `${BASE}/${t.id}`)).status).toBe(404);
    const reverted = (await list()).find((x) => x.usage === custom.usage)!;
    expect(reverted).toMatchObject({ id: 'default_access_workflow_started', is_default: true });
    expect((await h().call('DELETE', `${BASE}/${t.id}`)).status).toBe(404);
  });

  it('keeps one custom template per usage', async () => {
    const first = (await create(custom)).body.value as Template;
    const second = await create({ ...custom, name: 'Another' });
    expect(second.status).toBe(400);
    expect(violations(second.body)).toEqual([
      { field: 'value.usage', description: expect.stringContaining('one custom template per usage') },
    ]);
    // Moving another usage's template onto a taken usage is refused too.
    const risk = (await create({ ...custom, usage: 'ASSESSMENT_RISK' })).body.value as Template;
    const moved = await h().call('PUT', `${BASE}/${risk.id}`, { value: { ...custom } });
    expect(moved.status).toBe(400);
    expect(violations(moved.body)[0]?.field).toBe('value.usage');
    expect(
      (await list())
        .filter((t) => !t.is_default)
        .map((t) => t.id)
        .sort(),
    ).toEqual([first.id, risk.id].sort());
  });

  it('refuses bad templates naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...custom, usage: 'ACCESS_WORKFLOW_EXPLODED' }, 'value.usage'],
      [{ ...custom, body_template_base64: 'not base64!' }, 'value.body_template_base64'],
      [{ ...custom, body_template_base64: b64('no html here') }, 'value.body_template_base64'],
      [
        { ...custom, body_template_base64: Buffer.from([0xff, 0xfe, 0x3c]).toString('base64') },
        'value.body_template_base64',
      ],
      [
        { ...custom, body_template_base64: b64(`<p>${'x'.repeat(300 * 1024)}</p>`) },
        'value.body_template_base64',
      ],
      [{ ...custom, name: '' }, 'value.name'],
      [{ ...custom, subject_template: 's'.repeat(999) }, 'value.subject_template'],
      [{ ...custom, colour: 'red' }, 'value.colour'],
      [{ ...custom, id: 'mine' }, 'value.id'],
      [{ name: 'only a name' }, 'value.usage'],
    ];
    for (const [value, field] of cases) {
      const res = await create(value);
      expect(res.status, field).toBe(400);
      expect(
        violations(res.body).map((v) => v.field),
        JSON.stringify(value).slice(0, 80),
      ).toContain(field);
    }
    expect((await list()).every((t) => t.is_default)).toBe(true);
  });

  it('refuses to change or delete a default, and a PUT whose value.id is another id', async () => {
    const put = await h().call('PUT', `${BASE}/default_assessment_risk`, {
      value: { ...custom, usage: 'ASSESSMENT_RISK' },
    });
    expect(put.status).toBe(400);
    expect(violations(put.body)[0]).toEqual({
      field: 'id',
      description: expect.stringContaining('default template'),
    });
    expect((await h().call('DELETE', `${BASE}/default_assessment_risk`)).status).toBe(400);
    const t = (await create(custom)).body.value as Template;
    const wrong = await h().call('PUT', `${BASE}/${t.id}`, { value: { ...custom, id: 'other' } });
    expect(violations(wrong.body)[0]?.field).toBe('value.id');
    expect((await h().call('PUT', `${BASE}/no-such-id`, { value: custom })).status).toBe(404);
  });
});

describe(':test_template', () => {
  const h = useEmulator();
  it('is 503 without an SMTP server, saying how to configure one', async () => {
    const res = await h().call('POST', `${BASE}:test_template`, { value: custom });
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('no SMTP server');
  });
});

describe(':test_template with an SMTP server', () => {
  // The sink's port is known once it listens; each test's emulator reads the options when it starts.
  const options = { smtp: { host: '127.0.0.1', port: 0 } };
  beforeAll(() => {
    options.smtp.port = sink.port;
  });
  const h = useEmulator(options);

  it('renders the placeholders with the sample data of the usage and sends the message', async () => {
    const before = sink.received.length;
    const res = await h().call('POST', `${BASE}:test_template`, {
      value: {
        ...custom,
        subject_template: 'Review {{ review_name }} by {{due_date}}',
        body_template_base64: b64('<p>Hi {{recipient_name}}, see {{review_name}} ({{no_such_thing}})</p>'),
      },
      emails: ['ops@example.com', 'sec@example.com'],
    });
    expect(res.status).toBe(200);
    expect(res.body.value).toMatchObject({
      subject: 'Review Q4 access review: Finance & Payroll by 2026-12-31',
      recipients: ['ops@example.com', 'sec@example.com'],
      unknown_placeholders: ['no_such_thing'],
    });
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail!.envelopeTo).toEqual(['ops@example.com', 'sec@example.com']);
    expect(mail!.mail.subject).toBe('Review Q4 access review: Finance & Payroll by 2026-12-31');
    expect(mail!.mail.html).toContain(
      '<p>Hi Alex Morgan, see Q4 access review: Finance &amp; Payroll ({{no_such_thing}})</p>',
    );
    expect(mail!.mail.text).toContain('Hi Alex Morgan');
    const events = values<{ event_type: string; category: string }>(
      await h().call('GET', '/_emulator/events?event_type=EMAIL_SENT'),
    );
    expect(events).toEqual([expect.objectContaining({ event_type: 'EMAIL_SENT', category: 'NOTIFICATION' })]);
  });

  it('sends a shipped default as it is, to the default recipient', async () => {
    const before = sink.received.length;
    const risk = (await h().call('GET', `${BASE}/default_assessment_risk`)).body.value as Template;
    const { id, name, subject_template, body_template_base64, usage } = risk;
    const res = await h().call('POST', `${BASE}:test_template`, {
      value: { id, name, subject_template, body_template_base64, usage },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail!.envelopeTo).toEqual(['admin@oaa-emulator.localhost']);
    expect(mail!.mail.subject).toBe('Risk found: Dormant privileged accounts (CRITICAL)');
    expect(res.body.value.unknown_placeholders).toEqual([]);
  });

  it('validates the template and the recipients before sending', async () => {
    const before = sink.received.length;
    const bad = await h().call('POST', `${BASE}:test_template`, {
      value: { ...custom, usage: 'NOPE' },
      emails: ['not-an-address'],
    });
    expect(bad.status).toBe(400);
    expect(
      violations(bad.body)
        .map((v) => v.field)
        .sort(),
    ).toEqual(['emails[0]', 'value.usage']);
    expect(sink.received.length).toBe(before);
  });
});
