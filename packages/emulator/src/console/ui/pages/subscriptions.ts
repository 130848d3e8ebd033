/**
 * Event subscriptions (`/_emulator/subscriptions`): list with the last evaluation's outcome, create
 * (a filter on event types, severities and categories, and one destination), evaluate now, delete;
 * and the allowlist of destinations (`/_emulator/allowlist`) alerts may go to.
 */
import { api } from '../api.js';
import { CATEGORIES, SEVERITIES } from '../api-values.js';
import { announce, errorBox, h, replace, when } from '../dom.js';

const DESTINATIONS = ['CUSTOM_WEBHOOK', 'CHAT_WEBHOOK', 'TEAM_CHAT_WEBHOOK', 'EMAIL'];

interface Subscription {
  id: string;
  name: string;
  description: string;
  filter: { event_types: string[]; severities: string[]; categories: string[] };
  destination: { type: string; url?: string; recipients?: string[] };
  last_evaluated_at: string;
  last_outcome: string | null;
}

interface Allowlist {
  email_domains: string[];
  webhook_hosts: string[];
}

function lines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

function checks(name: string, values: readonly string[]): HTMLInputElement[] {
  return values.map((v) => h('input', { type: 'checkbox', name, value: v }));
}

function fieldset(legend: string, boxes: HTMLInputElement[]): HTMLFieldSetElement {
  return h(
    'fieldset',
    { class: 'checks' },
    h('legend', {}, legend),
    ...boxes.map((b) => h('label', {}, b, ` ${b.value}`)),
  );
}

/** Renders the subscriptions page. */
export async function renderSubscriptions(main: HTMLElement): Promise<void> {
  const status = h('div');
  const list = h('div');

  async function act(what: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await what();
      replace(status);
      announce(done);
      await refresh();
    } catch (err) {
      replace(status, errorBox(err));
    }
  }

  async function refresh(): Promise<void> {
    const subs = (await api<{ values: Subscription[] }>('GET', '/_emulator/subscriptions')).values;
    replace(
      list,
      subs.length === 0
        ? h('p', { class: 'muted' }, 'No subscriptions yet.')
        : h(
            'table',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['Name', 'Filter', 'Destination', 'Last evaluated', 'Outcome', ''].map((t) =>
                  h('th', { scope: 'col' }, t),
                ),
              ),
            ),
            h(
              'tbody',
              {},
              ...subs.map((s) =>
                h(
                  'tr',
                  {},
                  h(
                    'th',
                    { scope: 'row' },
                    s.name,
                    s.description ? h('div', { class: 'muted' }, s.description) : null,
                  ),
                  h(
                    'td',
                    {},
                    [
                      s.filter.event_types.join(', ') || 'any type',
                      s.filter.severities.join(', ') || 'any severity',
                      s.filter.categories.join(', ') || 'any category',
                    ].join(' · '),
                  ),
                  h(
                    'td',
                    {},
                    s.destination.type,
                    h('br'),
                    h(
                      'span',
                      { class: 'muted' },
                      s.destination.url ?? s.destination.recipients?.join(', ') ?? '',
                    ),
                  ),
                  h('td', {}, when(s.last_evaluated_at)),
                  h('td', {}, s.last_outcome ?? '—'),
                  h(
                    'td',
                    { class: 'row-actions' },
                    h(
                      'button',
                      {
                        type: 'button',
                        'aria-label': `Evaluate ${s.name} now`,
                        onclick: () =>
                          void act(
                            () =>
                              api('POST', `/_emulator/subscriptions/${encodeURIComponent(s.id)}/evaluate`),
                            `${s.name} evaluated`,
                          ),
                      },
                      'Evaluate now',
                    ),
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'danger',
                        'aria-label': `Delete ${s.name}`,
                        onclick: () => {
                          if (!confirm(`Delete the subscription ${s.name}?`)) return;
                          void act(
                            () => api('DELETE', `/_emulator/subscriptions/${encodeURIComponent(s.id)}`),
                            `${s.name} deleted`,
                          );
                        },
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

  const name = h('input', { id: 'sub-name', required: true, autocomplete: 'off' });
  const description = h('input', { id: 'sub-description', autocomplete: 'off' });
  const types = h('input', {
    id: 'sub-types',
    placeholder: 'OAA_PUSH, API_KEY_CREATED',
    autocomplete: 'off',
  });
  const severities = checks('severities', SEVERITIES);
  const categories = checks('categories', CATEGORIES);
  const kind = h('select', { id: 'sub-kind' }, ...DESTINATIONS.map((d) => h('option', { value: d }, d)));
  const target = h('input', {
    id: 'sub-target',
    required: true,
    autocomplete: 'off',
    'aria-describedby': 'sub-target-help',
  });
  const form = h(
    'form',
    { class: 'stack-form' },
    h('label', { for: 'sub-name' }, 'Name'),
    name,
    h('label', { for: 'sub-description' }, 'Description'),
    description,
    h('label', { for: 'sub-types' }, 'Event types'),
    types,
    h('span', { class: 'label' }, 'Severities'),
    fieldset('Severities', severities),
    h('span', { class: 'label' }, 'Categories'),
    fieldset('Categories', categories),
    h('label', { for: 'sub-kind' }, 'Destination'),
    kind,
    h('label', { for: 'sub-target' }, 'URL or recipients'),
    target,
    h('span'),
    h(
      'span',
      { id: 'sub-target-help', class: 'muted' },
      'A webhook URL, or e-mail addresses separated by commas for EMAIL.',
    ),
    h('span'),
    h('div', {}, h('button', { type: 'submit' }, 'Create subscription')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const destination =
      kind.value === 'EMAIL'
        ? { type: 'EMAIL', recipients: lines(target.value) }
        : { type: kind.value, url: target.value.trim() };
    void act(async () => {
      await api('POST', '/_emulator/subscriptions', {
        name: name.value,
        description: description.value,
        filter: {
          event_types: lines(types.value),
          severities: severities.filter((b) => b.checked).map((b) => b.value),
          categories: categories.filter((b) => b.checked).map((b) => b.value),
        },
        destination,
      });
      form.reset();
    }, 'Subscription created');
  });

  const allow = await api<Allowlist>('GET', '/_emulator/allowlist');
  const domains = h('textarea', { id: 'allow-domains', rows: 2 }, allow.email_domains.join('\n'));
  const hosts = h('textarea', { id: 'allow-hosts', rows: 2 }, allow.webhook_hosts.join('\n'));
  const allowForm = h(
    'form',
    { class: 'stack-form' },
    h('label', { for: 'allow-domains' }, 'E-mail domains'),
    domains,
    h('label', { for: 'allow-hosts' }, 'Webhook hosts'),
    hosts,
    h('span'),
    h('div', {}, h('button', { type: 'submit' }, 'Save allowlist')),
  );
  allowForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void act(
      () =>
        api('PUT', '/_emulator/allowlist', {
          email_domains: lines(domains.value),
          webhook_hosts: lines(hosts.value),
        }),
      'Allowlist saved',
    );
  });

  main.append(
    h('section', { class: 'card' }, h('h2', {}, 'New subscription'), form, status),
    list,
    h(
      'section',
      { class: 'card allowlist' },
      h('h2', {}, 'Allowlist'),
      h('p', { class: 'muted' }, 'Alerts go only to these destinations; one per line.'),
      allowForm,
    ),
  );
  await refresh();
}
