/**
 * API keys: create (the key is shown once), list by prefix, revoke, reinstate, delete; through
 * `/_emulator/api_keys`.
 */
import { api } from '../api.js';
import { announce, errorBox, h, replace, when } from '../dom.js';

interface ApiKey {
  id: string;
  name: string;
  role: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

const ROLES = ['member', 'admin', 'system_monitoring'];

/** Renders the API keys page. */
export async function renderApiKeys(main: HTMLElement): Promise<void> {
  const shown = h('div', { class: 'shown-once', 'aria-live': 'polite' });
  const list = h('div');
  const status = h('div');

  async function refresh(): Promise<void> {
    const keys = (await api<{ values: ApiKey[] }>('GET', '/_emulator/api_keys')).values;
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
            ...['Name', 'Role', 'Key starts with', 'Created', 'State', ''].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          ...keys.map((k) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, k.name),
              h('td', {}, k.role),
              h('td', {}, h('code', {}, `${k.prefix}…`)),
              h('td', {}, when(k.created_at)),
              h('td', {}, k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'active'),
              h(
                'td',
                { class: 'row-actions' },
                k.revoked_at
                  ? h(
                      'button',
                      {
                        type: 'button',
                        'aria-label': `Reinstate ${k.name}`,
                        onclick: () => void change(k, 'reinstate'),
                      },
                      'Reinstate',
                    )
                  : h(
                      'button',
                      {
                        type: 'button',
                        class: 'danger',
                        'aria-label': `Revoke ${k.name}`,
                        onclick: () => void change(k, 'revoke'),
                      },
                      'Revoke',
                    ),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'danger',
                    'aria-label': `Delete ${k.name}`,
                    onclick: () => void change(k, 'delete'),
                  },
                  'Delete',
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  async function change(k: ApiKey, action: 'revoke' | 'reinstate' | 'delete'): Promise<void> {
    const warnings = {
      revoke: `Revoke the key "${k.name}"? Clients using it stop working at once.`,
      reinstate: `Reinstate the key "${k.name}"? Clients using it work again.`,
      delete: `Delete the key "${k.name}"? It cannot be reinstated afterwards.`,
    };
    if (!confirm(warnings[action])) return;
    const path = `/_emulator/api_keys/${encodeURIComponent(k.id)}`;
    try {
      if (action === 'delete') await api('DELETE', path);
      else await api('POST', `${path}/${action}`);
      announce(`Key ${k.name}: ${action} done`);
      await refresh();
    } catch (err) {
      replace(status, errorBox(err));
    }
  }

  const name = h('input', { id: 'key-name', name: 'name', required: true, autocomplete: 'off' });
  const role = h(
    'select',
    { id: 'key-role', name: 'role' },
    ...ROLES.map((r) => h('option', { value: r }, r)),
  );
  const form = h(
    'form',
    { class: 'inline-form' },
    h('label', { for: 'key-name' }, 'Name'),
    name,
    h('label', { for: 'key-role' }, 'Role'),
    role,
    h('button', { type: 'submit' }, 'Create key'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void (async () => {
      try {
        const { value } = await api<{ value: ApiKey & { key: string } }>('POST', '/_emulator/api_keys', {
          name: name.value,
          role: role.value,
        });
        replace(
          shown,
          h(
            'p',
            {},
            `Key "${value.name}" created. Copy it now: it is not shown again. `,
            h('code', { class: 'secret', 'data-testid': 'new-key' }, value.key),
          ),
        );
        replace(status);
        form.reset();
        await refresh();
      } catch (err) {
        replace(status, errorBox(err));
      }
    })();
  });

  main.append(h('section', { class: 'card' }, h('h2', {}, 'Create a key'), form, status, shown), list);
  await refresh();
}
