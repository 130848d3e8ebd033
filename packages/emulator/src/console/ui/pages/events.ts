/**
 * Events: the filtered list of `GET /api/preview/events` (severity, category, event type, or any
 * SCIM filter the API takes), newest first, and "follow": new matching events appear as they
 * arrive (the same query polled from the last event's time, events already shown skipped by id).
 */
import { api } from '../api.js';
import { CATEGORIES, SEVERITIES } from '../api-values.js';
import { announce, errorBox, field, h, onSubmit, plural, replace, select, table, when } from '../dom.js';

const MAX_SHOWN = 500;
const MAX_PAGES = 20;
const FOLLOW_EVERY_MS = 2000;
const COLUMNS = ['Time', 'Severity', 'Category', 'Type', 'Message', 'Entity'];

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

/** The filter form, its "follow" checkbox, and the SCIM filter its fields make. */
interface Filters {
  form: HTMLFormElement;
  follow: HTMLInputElement;
  compose(): string;
}

function filterForm(): Filters {
  const severity = select({ id: 'ev-severity' }, SEVERITIES, 'any');
  const category = select({ id: 'ev-category' }, CATEGORIES, 'any');
  const type = h('input', { id: 'ev-type', placeholder: 'OAA_PUSH', size: 18, autocomplete: 'off' });
  const scim = h('input', {
    id: 'ev-filter',
    size: 40,
    autocomplete: 'off',
    placeholder: 'entity_id eq "…" and timestamp ge "2026-11-01T00:00:00Z"',
  });
  const follow = h('input', { id: 'ev-follow', type: 'checkbox' });
  const form = h(
    'form',
    { class: 'inline-form' },
    ...field('Severity', severity),
    ...field('Category', category),
    ...field('Event type', type),
    ...field('SCIM filter', scim),
    h('button', { type: 'submit' }, 'Apply'),
    h('label', { class: 'check' }, follow, ' Follow new events'),
  );
  const compose = (): string => {
    const terms: string[] = [];
    if (severity.value) terms.push(`severity eq ${quote(severity.value)}`);
    if (category.value) terms.push(`category eq ${quote(category.value)}`);
    if (type.value.trim()) terms.push(`event_type eq ${quote(type.value.trim())}`);
    if (scim.value.trim()) terms.push(`(${scim.value.trim()})`);
    return terms.join(' and ');
  };
  return { form, follow, compose };
}

/** The events shown: a filter's events loaded, then, while following, new ones polled for. */
class EventFeed {
  readonly body = h('tbody');
  readonly count = h('p', { class: 'muted', 'aria-live': 'polite' });
  readonly status = h('div');
  private shown = new Set<string>();
  private filter = '';
  private last: string | undefined;
  private timer: number | undefined;
  private generation = 0;

  constructor(private readonly follow: HTMLInputElement) {}

  /** Shows the events matching `filter`, replacing those shown. */
  async load(filter: string): Promise<void> {
    const mine = ++this.generation;
    this.filter = filter;
    this.shown = new Set();
    this.last = undefined;
    replace(this.body);
    try {
      const events = await fetchAll(filter);
      if (mine !== this.generation) return;
      replace(this.status);
      this.add(events);
    } catch (err) {
      replace(this.status, errorBox(err));
    }
  }

  /** Starts or stops polling, as the "follow" checkbox says. */
  followChanged(): void {
    window.clearTimeout(this.timer);
    this.showCount();
    if (this.follow.checked) this.schedule();
  }

  private schedule(): void {
    this.timer = window.setTimeout(() => void this.poll(), FOLLOW_EVERY_MS);
  }

  private async poll(): Promise<void> {
    const mine = this.generation;
    if (!this.follow.checked) return;
    try {
      const since = this.last === undefined ? '' : `timestamp ge ${quote(this.last)}`;
      const f = [this.filter === '' ? '' : `(${this.filter})`, since].filter((t) => t !== '').join(' and ');
      const events = await fetchAll(f);
      if (mine === this.generation && this.follow.checked) {
        const added = this.add(events);
        if (added > 0) announce(plural(added, 'new event'));
      }
    } catch (err) {
      replace(this.status, errorBox(err));
    }
    if (this.follow.checked) this.schedule();
  }

  /** Adds the events not shown yet, newest on top; answers how many. */
  private add(events: EventRecord[]): number {
    let added = 0;
    for (const e of events) {
      if (this.shown.has(e.id)) continue;
      this.shown.add(e.id);
      this.body.prepend(row(e));
      added++;
      if (this.last === undefined || e.timestamp > this.last) this.last = e.timestamp;
    }
    while (this.body.rows.length > MAX_SHOWN) this.body.lastElementChild?.remove();
    this.showCount();
    return added;
  }

  private showCount(): void {
    replace(this.count, `${plural(this.shown.size, 'event')}${this.follow.checked ? ' · following' : ''}`);
  }
}

/** Renders the events page. */
export async function renderEvents(main: HTMLElement): Promise<void> {
  const filters = filterForm();
  const feed = new EventFeed(filters.follow);
  onSubmit(filters.form, () => feed.load(filters.compose()));
  filters.follow.addEventListener('change', () => feed.followChanged());
  main.append(filters.form, feed.status, feed.count, table(COLUMNS, feed.body, { class: 'events' }));
  await feed.load(filters.compose());
}
