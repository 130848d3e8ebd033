/**
 * Notification templates (`/api/preview/notifications/email_templates`): every usage with the
 * template it uses (its custom one, or the shipped default), an editor with a live preview rendered
 * by the emulator with the usage's sample data (the rendering of `:test_template`), save (create
 * for a usage that uses its default, update otherwise), revert to the default (delete), and a test
 * message sent through the emulator's SMTP server.
 */
import { api } from '../api.js';
import { announce, errorBox, h, replace, when } from '../dom.js';

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

/** Renders the templates page. */
export async function renderTemplates(main: HTMLElement): Promise<void> {
  const list = h('div');
  const editor = h('section', { class: 'card editor', 'aria-label': 'Template editor', hidden: true });
  const status = h('div');

  async function refresh(select?: string): Promise<void> {
    const templates = (await api<{ values: Template[] }>('GET', BASE)).values;
    replace(
      list,
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Usage', 'Template', 'Kind', 'Updated', ''].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          {},
          ...templates.map((t) =>
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
                h(
                  'button',
                  { type: 'button', 'aria-label': `Edit ${t.usage}`, onclick: () => edit(t) },
                  'Edit',
                ),
              ),
            ),
          ),
        ),
      ),
    );
    const chosen = templates.find((t) => t.usage === select);
    if (chosen) edit(chosen);
  }

  function edit(t: Template): void {
    const name = h('input', { id: 'tpl-name', required: true, value: t.name, autocomplete: 'off' });
    const subject = h('input', {
      id: 'tpl-subject',
      required: true,
      value: t.subject_template,
      autocomplete: 'off',
    });
    const bodyHtml = h(
      'textarea',
      { id: 'tpl-body', rows: 14, spellcheck: false },
      fromBase64(t.body_template_base64),
    );
    const frame = h('iframe', { class: 'preview', title: 'Rendered preview', sandbox: '' });
    const renderedSubject = h('p', { 'data-testid': 'preview-subject' });
    const placeholders = h('p', { class: 'muted' });
    const recipient = h('input', {
      id: 'tpl-to',
      type: 'email',
      placeholder: 'test@example.com',
      autocomplete: 'off',
    });
    let timer: number | undefined;

    const value = (): Record<string, string> => ({
      name: name.value,
      subject_template: subject.value,
      body_template_base64: toBase64(bodyHtml.value),
      usage: t.usage,
    });

    async function preview(): Promise<void> {
      try {
        const p = await api<Preview>('POST', '/console/api/templates/preview', { value: value() });
        replace(renderedSubject, h('strong', {}, 'Subject: '), p.subject);
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
    }
    const schedule = (): void => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void preview(), PREVIEW_DELAY_MS);
    };
    for (const input of [name, subject, bodyHtml]) input.addEventListener('input', schedule);

    async function act(what: () => Promise<unknown>, done: string): Promise<void> {
      try {
        await what();
        announce(done);
        replace(status, h('p', { class: 'ok', role: 'status' }, done));
        await refresh(t.usage);
      } catch (err) {
        replace(status, errorBox(err));
      }
    }

    const form = h(
      'form',
      { class: 'stack-form' },
      h('label', { for: 'tpl-name' }, 'Name'),
      name,
      h('label', { for: 'tpl-subject' }, 'Subject'),
      subject,
      h('label', { for: 'tpl-body' }, 'Body (HTML)'),
      bodyHtml,
      h('span'),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit' }, t.is_default ? 'Save as custom template' : 'Save'),
        t.is_default
          ? null
          : h(
              'button',
              {
                type: 'button',
                class: 'danger',
                onclick: () => {
                  if (!confirm(`Delete the custom ${t.usage} template? The usage goes back to its default.`))
                    return;
                  void act(
                    () => api('DELETE', `${BASE}/${encodeURIComponent(t.id)}`),
                    'Reverted to the default template',
                  );
                },
              },
              'Revert to default',
            ),
      ),
      h('label', { for: 'tpl-to' }, 'Test recipient'),
      h(
        'div',
        { class: 'actions' },
        recipient,
        h(
          'button',
          {
            type: 'button',
            onclick: () =>
              void act(
                () =>
                  api('POST', `${BASE}:test_template`, {
                    value: { ...value(), ...(t.is_default ? {} : { id: t.id }) },
                    ...(recipient.value ? { emails: [recipient.value] } : {}),
                  }),
                'Test message sent',
              ),
          },
          'Send test message',
        ),
      ),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void act(
        () =>
          t.is_default
            ? api('POST', BASE, { value: value() })
            : api('PUT', `${BASE}/${encodeURIComponent(t.id)}`, { value: { ...value(), id: t.id } }),
        'Template saved',
      );
    });

    editor.hidden = false;
    replace(
      editor,
      h('h2', {}, `${t.usage} `, h('span', { class: 'muted' }, t.is_default ? '(default)' : '(custom)')),
      h(
        'div',
        { class: 'editor-grid' },
        form,
        h('div', { class: 'preview-pane' }, h('h3', {}, 'Preview'), renderedSubject, frame, placeholders),
      ),
    );
    void preview();
    name.focus();
  }

  main.append(status, editor, list);
  await refresh();
}
