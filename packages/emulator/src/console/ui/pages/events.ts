/**
 * Events: the filtered list of `GET /api/preview/events` (severity, category, event type, or any
 * SCIM filter the API takes), newest first, and "follow": new matching events appear as they
 * arrive (the same query polled from the last event's time, events already shown skipped by id).
 */
import { api } from '../api.js';
import { CATEGORIES, SEVERITIES } from '../api-values.js';
import { announce, errorBox, h, replace, when } from '../dom.js';

const MAX_SHOWN = 500;
const MAX_PAGES = 20;
const FOLLOW_EVERY_MS = 2000;

interface EventRecord {
  id: string;
  timestamp: string;
  category: string;
  severity: string;
  name: string;
  message: string;
  entity_name: string | null;
  event_type: string;
  error: { message: string; metadata: Record<string, string> } | null;
}

interface EventsPage {
  values: EventRecord[];
  next_page_token: string;
  has_more: boolean;
}

function quote(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Every event matching `filter`, oldest first (at most MAX_PAGES pages). */
async function fetchAll(filter: string): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  let token = '';
  for (let i = 0; i < MAX_PAGES; i++) {
    const q = new URLSearchParams({ page_size: '1000' });
    if (filter !== '') q.set('filter', filter);
    if (token !== '') q.set('page_token', token);
    const page = await api<EventsPage>('GET', `/api/preview/events?${q.toString()}`);
    out.push(...page.values);
    if (!page.has_more) break;
    token = page.next_page_token;
  }
  return out;
}

function row(e: EventRecord): HTMLTableRowElement {
  const details = e.error
    ? h(
        'details',
        {},
        h('summary', {}, e.error.message),
        h(
          'ul',
          {},
          ...Object.values(e.error.metadata)
            .slice(0, 20)
            .map((m) => h('li', {}, m)),
        ),
      )
    : null;
  return h(
    'tr',
    { 'data-event-id': e.id },
    h('td', {}, when(e.timestamp)),
    h('td', {}, h('span', { class: `sev sev-${e.severity.toLowerCase()}` }, e.severity)),
    h('td', {}, e.category),
    h('td', {}, h('code', {}, e.event_type)),
    h('td', {}, e.message, details),
    h('td', {}, e.entity_name ?? ''),
  );
}

/** Renders the events page. */
export async function renderEvents(main: HTMLElement): Promise<void> {
  const select = (id: string, values: readonly string[]): HTMLSelectElement =>
    h(
      'select',
      { id },
      h('option', { value: '' }, 'any'),
      ...values.map((v) => h('option', { value: v }, v)),
    );
  const severity = select('ev-severity', SEVERITIES);
  const category = select('ev-category', CATEGORIES);
  const type = h('input', { id: 'ev-type', placeholder: 'OAA_PUSH', size: 18, autocomplete: 'off' });
  const scim = h('input', {
    id: 'ev-filter',
    size: 40,
    autocomplete: 'off',
    placeholder: 'entity_id eq "…" and timestamp ge "2026-11-01T00:00:00Z"',
  });
  const follow = h('input', { id: 'ev-follow', type: 'checkbox' });
  const status = h('div');
  const count = h('p', { class: 'muted', 'aria-live': 'polite' });
  const body = h('tbody');
  let shown = new Set<string>();
  let filter = '';
  let last: string | undefined;
  let timer: number | undefined;
  let generation = 0;

  function compose(): string {
    const terms: string[] = [];
    if (severity.value) terms.push(`severity eq ${quote(severity.value)}`);
    if (category.value) terms.push(`category eq ${quote(category.value)}`);
    if (type.value.trim()) terms.push(`event_type eq ${quote(type.value.trim())}`);
    if (scim.value.trim()) terms.push(`(${scim.value.trim()})`);
    return terms.join(' and ');
  }

  function add(events: EventRecord[]): number {
    let added = 0;
    for (const e of events) {
      if (shown.has(e.id)) continue;
      shown.add(e.id);
      body.prepend(row(e));
      added++;
      if (last === undefined || e.timestamp > last) last = e.timestamp;
    }
    while (body.rows.length > MAX_SHOWN) body.lastElementChild?.remove();
    replace(
      count,
      `${shown.size} event${shown.size === 1 ? '' : 's'}${follow.checked ? ' · following' : ''}`,
    );
    return added;
  }

  async function load(): Promise<void> {
    const mine = ++generation;
    filter = compose();
    shown = new Set();
    last = undefined;
    replace(body);
    try {
      const events = await fetchAll(filter);
      if (mine !== generation) return;
      replace(status);
      add(events);
    } catch (err) {
      replace(status, errorBox(err));
    }
  }

  async function poll(): Promise<void> {
    const mine = generation;
    if (!follow.checked) return;
    try {
      const since = last === undefined ? '' : `timestamp ge ${quote(last)}`;
      const f = [filter === '' ? '' : `(${filter})`, since].filter((t) => t !== '').join(' and ');
      const events = await fetchAll(f);
      if (mine === generation && follow.checked) {
        const added = add(events);
        if (added > 0) announce(`${added} new event${added === 1 ? '' : 's'}`);
      }
    } catch (err) {
      replace(status, errorBox(err));
    }
    if (follow.checked) timer = window.setTimeout(() => void poll(), FOLLOW_EVERY_MS);
  }

  const form = h(
    'form',
    { class: 'inline-form' },
    h('label', { for: 'ev-severity' }, 'Severity'),
    severity,
    h('label', { for: 'ev-category' }, 'Category'),
    category,
    h('label', { for: 'ev-type' }, 'Event type'),
    type,
    h('label', { for: 'ev-filter' }, 'SCIM filter'),
    scim,
    h('button', { type: 'submit' }, 'Apply'),
    h('label', { class: 'check' }, follow, ' Follow new events'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void load();
  });
  follow.addEventListener('change', () => {
    window.clearTimeout(timer);
    replace(
      count,
      `${shown.size} event${shown.size === 1 ? '' : 's'}${follow.checked ? ' · following' : ''}`,
    );
    if (follow.checked) timer = window.setTimeout(() => void poll(), FOLLOW_EVERY_MS);
  });

  main.append(
    form,
    status,
    count,
    h(
      'table',
      { class: 'events' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Time', 'Severity', 'Category', 'Type', 'Message', 'Entity'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      body,
    ),
  );
  await load();
}
