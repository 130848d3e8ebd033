/**
 * Event subscriptions (`/_emulator/subscriptions`): list with the last evaluation's outcome, create
 * (a filter on event types, severities and categories, and one destination), evaluate now, delete;
 * and the allowlist of destinations (`/_emulator/allowlist`) alerts may go to.
 */
import { api } from '../api.js';
import { CATEGORIES, SEVERITIES } from '../api-values.js';
import {
  act,
  button,
  checkboxGroup,
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

const DESTINATIONS = ['CUSTOM_WEBHOOK', 'CHAT_WEBHOOK', 'TEAM_CHAT_WEBHOOK', 'EMAIL'];
const BASE = '/_emulator/subscriptions';

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

function subscriptionRow(s: Subscription, run: Run): HTMLTableRowElement {
  const path = `${BASE}/${encodeURIComponent(s.id)}`;
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, s.name, s.description ? h('div', { class: 'muted' }, s.description) : null),
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
      h('span', { class: 'muted' }, s.destination.url ?? s.destination.recipients?.join(', ') ?? ''),
    ),
    h('td', {}, when(s.last_evaluated_at)),
    h('td', {}, s.last_outcome ?? '—'),
    h(
      'td',
      { class: 'row-actions' },
      button('Evaluate now', () => void run(() => api('POST', `${path}/evaluate`), `${s.name} evaluated`), {
        'aria-label': `Evaluate ${s.name} now`,
      }),
      button(
        'Delete',
        confirmed(`Delete the subscription ${s.name}?`, () => {
          void run(() => api('DELETE', path), `${s.name} deleted`);
        }),
        { class: 'danger', 'aria-label': `Delete ${s.name}` },
      ),
    ),
  );
}

function subscriptionList(subs: Subscription[], run: Run): HTMLElement {
  if (subs.length === 0) return h('p', { class: 'muted' }, 'No subscriptions yet.');
  return table(
    ['Name', 'Filter', 'Destination', 'Last evaluated', 'Outcome', ''],
    subs.map((s) => subscriptionRow(s, run)),
  );
}

function subscriptionForm(run: Run): HTMLFormElement {
  const name = h('input', { id: 'sub-name', required: true, autocomplete: 'off' });
  const description = h('input', { id: 'sub-description', autocomplete: 'off' });
  const types = h('input', {
    id: 'sub-types',
    placeholder: 'OAA_PUSH, API_KEY_CREATED',
    autocomplete: 'off',
  });
  const severities = checkboxGroup('Severities', 'severities', SEVERITIES);
  const categories = checkboxGroup('Categories', 'categories', CATEGORIES);
  const kind = select({ id: 'sub-kind' }, DESTINATIONS);
  const target = h('input', {
    id: 'sub-target',
    required: true,
    autocomplete: 'off',
    'aria-describedby': 'sub-target-help',
  });
  const form = h(
    'form',
    { class: 'stack-form' },
    ...field('Name', name),
    ...field('Description', description),
    ...field('Event types', types),
    h('span', { class: 'label' }, 'Severities'),
    severities.fieldset,
    h('span', { class: 'label' }, 'Categories'),
    categories.fieldset,
    ...field('Destination', kind),
    ...field('URL or recipients', target),
    h('span'),
    h(
      'span',
      { id: 'sub-target-help', class: 'muted' },
      'A webhook URL, or e-mail addresses separated by commas for EMAIL.',
    ),
    h('span'),
    h('div', {}, h('button', { type: 'submit' }, 'Create subscription')),
  );
  return onSubmit(form, () => {
    const destination =
      kind.value === 'EMAIL'
        ? { type: 'EMAIL', recipients: lines(target.value) }
        : { type: kind.value, url: target.value.trim() };
    return run(async () => {
      await api('POST', BASE, {
        name: name.value,
        description: description.value,
        filter: {
          event_types: lines(types.value),
          severities: severities.checked(),
          categories: categories.checked(),
        },
        destination,
      });
      form.reset();
    }, 'Subscription created');
  });
}

function allowlistForm(allow: Allowlist, run: Run): HTMLFormElement {
  const domains = h('textarea', { id: 'allow-domains', rows: 2 }, allow.email_domains.join('\n'));
  const hosts = h('textarea', { id: 'allow-hosts', rows: 2 }, allow.webhook_hosts.join('\n'));
  const form = h(
    'form',
    { class: 'stack-form' },
    ...field('E-mail domains', domains),
    ...field('Webhook hosts', hosts),
    h('span'),
    h('div', {}, h('button', { type: 'submit' }, 'Save allowlist')),
  );
  return onSubmit(form, () =>
    run(
      () =>
        api('PUT', '/_emulator/allowlist', {
          email_domains: lines(domains.value),
          webhook_hosts: lines(hosts.value),
        }),
      'Allowlist saved',
    ),
  );
}

/** Renders the subscriptions page. */
export async function renderSubscriptions(main: HTMLElement): Promise<void> {
  const status = h('div');
  const list = h('div');
  const run = act(status, refresh);
  async function refresh(): Promise<void> {
    replace(list, subscriptionList((await api<{ values: Subscription[] }>('GET', BASE)).values, run));
  }
  const form = subscriptionForm(run);
  const allow = await api<Allowlist>('GET', '/_emulator/allowlist');
  main.append(
    h('section', { class: 'card' }, h('h2', {}, 'New subscription'), form, status),
    list,
    h(
      'section',
      { class: 'card allowlist' },
      h('h2', {}, 'Allowlist'),
      h('p', { class: 'muted' }, 'Alerts go only to these destinations; one per line.'),
      allowlistForm(allow, run),
    ),
  );
  await refresh();
}
