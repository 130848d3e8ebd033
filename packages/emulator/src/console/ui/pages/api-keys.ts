/**
 * API keys: create (the key is shown once), list by prefix, revoke, reinstate, delete; through
 * `/_emulator/api_keys`.
 */
import { api } from '../api.js';
import {
  act,
  button,
  confirmed,
  field,
  h,
  onSubmit,
  replace,
  select,
  table,
  when,
  type Run,
} from '../dom.js';

interface ApiKey {
  id: string;
  name: string;
  role: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** The emulator's key roles, the least privileged first (the form's default). */
const ROLES = ['member', 'admin', 'system_monitoring'];
const BASE = '/_emulator/api_keys';

type Change = 'revoke' | 'reinstate' | 'delete';

const QUESTIONS: Record<Change, (name: string) => string> = {
  revoke: (name) => `Revoke the key "${name}"? Clients using it stop working at once.`,
  reinstate: (name) => `Reinstate the key "${name}"? Clients using it work again.`,
  delete: (name) => `Delete the key "${name}"? It cannot be reinstated afterwards.`,
};

/** The buttons of a key's row: revoke (or reinstate) and delete, each confirmed first. */
function keyActions(k: ApiKey, run: Run): HTMLElement {
  const path = `${BASE}/${encodeURIComponent(k.id)}`;
  const change = (action: Change): (() => void) =>
    confirmed(QUESTIONS[action](k.name), () => {
      void run(
        () => (action === 'delete' ? api('DELETE', path) : api('POST', `${path}/${action}`)),
        `Key ${k.name}: ${action} done`,
      );
    });
  return h(
    'td',
    { class: 'row-actions' },
    k.revoked_at
      ? button('Reinstate', change('reinstate'), { 'aria-label': `Reinstate ${k.name}` })
      : button('Revoke', change('revoke'), { class: 'danger', 'aria-label': `Revoke ${k.name}` }),
    button('Delete', change('delete'), { class: 'danger', 'aria-label': `Delete ${k.name}` }),
  );
}

function keyTable(keys: ApiKey[], run: Run): HTMLTableElement {
  return table(
    ['Name', 'Role', 'Key starts with', 'Created', 'State', ''],
    keys.map((k) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, k.name),
        h('td', {}, k.role),
        h('td', {}, h('code', {}, `${k.prefix}…`)),
        h('td', {}, when(k.created_at)),
        h('td', {}, k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'active'),
        keyActions(k, run),
      ),
    ),
  );
}

/** The create form; the new key is shown once in `shown`. */
function createForm(shown: HTMLElement, run: Run): HTMLFormElement {
  const name = h('input', { id: 'key-name', name: 'name', required: true, autocomplete: 'off' });
  const role = select({ id: 'key-role', name: 'role' }, ROLES);
  const form = h(
    'form',
    { class: 'inline-form' },
    ...field('Name', name),
    ...field('Role', role),
    h('button', { type: 'submit' }, 'Create key'),
  );
  return onSubmit(form, () =>
    run(async () => {
      const { value } = await api<{ value: ApiKey & { key: string } }>('POST', BASE, {
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
      form.reset();
    }),
  );
}

/** Renders the API keys page. */
export async function renderApiKeys(main: HTMLElement): Promise<void> {
  const shown = h('div', { class: 'shown-once', 'aria-live': 'polite' });
  const list = h('div');
  const status = h('div');
  const run = act(status, refresh);
  async function refresh(): Promise<void> {
    replace(list, keyTable((await api<{ values: ApiKey[] }>('GET', BASE)).values, run));
  }
  main.append(
    h('section', { class: 'card' }, h('h2', {}, 'Create a key'), createForm(shown, run), status, shown),
    list,
  );
  await refresh();
}
