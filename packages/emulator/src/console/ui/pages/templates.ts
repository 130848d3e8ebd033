/**
 * Notification templates (`/api/preview/notifications/email_templates`): every usage with the
 * template it uses (its custom one, or the shipped default), an editor with a live preview rendered
 * by the emulator with the usage's sample data (the rendering of `:test_template`), save (create
 * for a usage that uses its default, update otherwise), revert to the default (delete), and a test
 * message sent through the emulator's SMTP server.
 */
import { api } from '../api.js';
import {
  act,
  button,
  confirmed,
  errorBox,
  field,
  h,
  onSubmit,
  replace,
  table,
  when,
  type Run,
} from '../dom.js';

const BASE = '/api/preview/notifications/email_templates';
const PREVIEW_DELAY_MS = 300;

interface Template {
  id: string;
  name: string;
  subject_template: string;
  body_template_base64: string;
  usage: string;
  is_default: boolean;
  updated_at: string | null;
}

interface Preview {
  subject: string;
  html: string;
  unknown_placeholders: string[];
  sample_data: Record<string, string>;
}

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(b64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}

function templateTable(templates: Template[], edit: (t: Template) => void): HTMLTableElement {
  return table(
    ['Usage', 'Template', 'Kind', 'Updated', ''],
    templates.map((t) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, h('code', {}, t.usage)),
        h('td', {}, t.name),
        h('td', {}, t.is_default ? 'default' : 'custom'),
        h('td', {}, when(t.updated_at)),
        h(
          'td',
          {},
          button('Edit', () => edit(t), { 'aria-label': `Edit ${t.usage}` }),
        ),
      ),
    ),
  );
}

/** The editor's fields, and the template they make (the body base64-encoded, as the API takes it). */
interface TemplateFields {
  name: HTMLInputElement;
  subject: HTMLInputElement;
  body: HTMLTextAreaElement;
  recipient: HTMLInputElement;
  value(): Record<string, string>;
}

function templateFields(t: Template): TemplateFields {
  const name = h('input', { id: 'tpl-name', required: true, value: t.name, autocomplete: 'off' });
  const subject = h('input', {
    id: 'tpl-subject',
    required: true,
    value: t.subject_template,
    autocomplete: 'off',
  });
  const body = h(
    'textarea',
    { id: 'tpl-body', rows: 14, spellcheck: false },
    fromBase64(t.body_template_base64),
  );
  const recipient = h('input', {
    id: 'tpl-to',
    type: 'email',
    placeholder: 'test@example.com',
    autocomplete: 'off',
  });
  const value = (): Record<string, string> => ({
    name: name.value,
    subject_template: subject.value,
    body_template_base64: toBase64(body.value),
    usage: t.usage,
  });
  return { name, subject, body, recipient, value };
}

/**
 * The preview pane: the subject and body the emulator renders from the fields, redrawn a moment
 * after each edit; `update()` redraws it now. Errors show in `status`.
 */
function livePreview(
  fields: TemplateFields,
  status: HTMLElement,
): { pane: HTMLElement; update(): Promise<void> } {
  const frame = h('iframe', { class: 'preview', title: 'Rendered preview', sandbox: '' });
  const subject = h('p', { 'data-testid': 'preview-subject' });
  const placeholders = h('p', { class: 'muted' });
  const update = async (): Promise<void> => {
    try {
      const p = await api<Preview>('POST', '/console/api/templates/preview', { value: fields.value() });
      replace(subject, h('strong', {}, 'Subject: '), p.subject);
      frame.srcdoc = p.html;
      replace(
        placeholders,
        `Sample data: ${Object.keys(p.sample_data)
          .map((k) => `{{${k}}}`)
          .join(' ')}`,
        p.unknown_placeholders.length > 0
          ? ` · not known for this usage: ${p.unknown_placeholders.join(', ')}`
          : '',
      );
      replace(status);
    } catch (err) {
      replace(status, errorBox(err));
    }
  };
  let timer: number | undefined;
  const schedule = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void update(), PREVIEW_DELAY_MS);
  };
  for (const input of [fields.name, fields.subject, fields.body]) input.addEventListener('input', schedule);
  const pane = h('div', { class: 'preview-pane' }, h('h3', {}, 'Preview'), subject, frame, placeholders);
  return { pane, update };
}

/** The editor's form: save, revert to the default (a custom template), send a test message. */
function editorForm(t: Template, fields: TemplateFields, run: Run): HTMLFormElement {
  const revert = confirmed(
    `Delete the custom ${t.usage} template? The usage goes back to its default.`,
    () => {
      void run(
        () => api('DELETE', `${BASE}/${encodeURIComponent(t.id)}`),
        'Reverted to the default template',
      );
    },
  );
  const sendTest = (): void => {
    void run(
      () =>
        api('POST', `${BASE}:test_template`, {
          value: { ...fields.value(), ...(t.is_default ? {} : { id: t.id }) },
          ...(fields.recipient.value ? { emails: [fields.recipient.value] } : {}),
        }),
      'Test message sent',
    );
  };
  const form = h(
    'form',
    { class: 'stack-form' },
    ...field('Name', fields.name),
    ...field('Subject', fields.subject),
    ...field('Body (HTML)', fields.body),
    h('span'),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, t.is_default ? 'Save as custom template' : 'Save'),
      t.is_default ? null : button('Revert to default', revert, { class: 'danger' }),
    ),
    h('label', { for: 'tpl-to' }, 'Test recipient'),
    h('div', { class: 'actions' }, fields.recipient, button('Send test message', sendTest)),
  );
  return onSubmit(form, () =>
    run(
      () =>
        t.is_default
          ? api('POST', BASE, { value: fields.value() })
          : api('PUT', `${BASE}/${encodeURIComponent(t.id)}`, { value: { ...fields.value(), id: t.id } }),
      'Template saved',
    ),
  );
}

/** Opens template `t` in `editor`; `refresh` redraws the list with a usage's template opened again. */
function openEditor(
  editor: HTMLElement,
  status: HTMLElement,
  t: Template,
  refresh: (usage: string) => Promise<void>,
): void {
  const fields = templateFields(t);
  const preview = livePreview(fields, status);
  const run = act(status, () => refresh(t.usage), true);
  editor.hidden = false;
  replace(
    editor,
    h('h2', {}, `${t.usage} `, h('span', { class: 'muted' }, t.is_default ? '(default)' : '(custom)')),
    h('div', { class: 'editor-grid' }, editorForm(t, fields, run), preview.pane),
  );
  void preview.update();
  fields.name.focus();
}

/** Renders the templates page. */
export async function renderTemplates(main: HTMLElement): Promise<void> {
  const list = h('div');
  const editor = h('section', { class: 'card editor', 'aria-label': 'Template editor', hidden: true });
  const status = h('div');
  const edit = (t: Template): void => openEditor(editor, status, t, refresh);
  async function refresh(usage?: string): Promise<void> {
    const templates = (await api<{ values: Template[] }>('GET', BASE)).values;
    replace(list, templateTable(templates, edit));
    const chosen = templates.find((t) => t.usage === usage);
    if (chosen) edit(chosen);
  }
  main.append(status, editor, list);
  await refresh();
}
