/** Providers and data sources: each provider's icon and template, each data source's status, last push and warnings. */
import { api } from '../api.js';
import { h, plural, table, when } from '../dom.js';

/** A data source as `/console/api/providers` reports it. */
export interface DataSourceOverview {
  id: string;
  name: string;
  status: string;
  last_push_at: string | null;
  warning_count: number;
  warnings: string[];
}

/** A provider as `/console/api/providers` reports it. */
export interface ProviderOverview {
  provider: { id: string; name: string; custom_template: string; state: string };
  has_icon: boolean;
  data_sources: DataSourceOverview[];
}

/** Every provider with its data sources. */
export async function loadProviders(): Promise<ProviderOverview[]> {
  return (await api<{ values: ProviderOverview[] }>('GET', '/console/api/providers')).values;
}

/** Loads a provider's icon through the API (`GET .../{id}:icon`) into `img`. */
async function showIcon(img: HTMLImageElement, providerId: string): Promise<void> {
  const icon = await api<{ mime_type: string; icon_base64: string }>(
    'GET',
    `/api/v1/providers/custom/${encodeURIComponent(providerId)}:icon`,
  );
  img.src = `data:${icon.mime_type};base64,${icon.icon_base64}`;
}

function warningsOf(ds: DataSourceOverview): HTMLElement | string {
  if (ds.warning_count === 0) return 'none';
  const label = ds.status === 'FAILED' ? 'error' : 'warning';
  return h(
    'details',
    {},
    h('summary', {}, plural(ds.warning_count, label)),
    h('ul', {}, ...ds.warnings.map((w) => h('li', {}, w))),
  );
}

function providerSection(p: ProviderOverview): HTMLElement {
  const icon = p.has_icon
    ? h('img', { class: 'icon', alt: '' })
    : h(
        'span',
        { class: 'icon placeholder', 'aria-hidden': 'true' },
        p.provider.name.slice(0, 1).toUpperCase(),
      );
  if (icon instanceof HTMLImageElement) void showIcon(icon, p.provider.id);
  const rows = p.data_sources.map((ds) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, ds.name),
      h('td', {}, h('span', { class: `status status-${ds.status.toLowerCase()}` }, ds.status)),
      h('td', {}, when(ds.last_push_at)),
      h('td', {}, warningsOf(ds)),
      h(
        'td',
        {},
        h('a', { href: `/console/graph?data_source_id=${encodeURIComponent(ds.id)}` }, 'Explore graph'),
      ),
    ),
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': `p-${p.provider.id}` },
    h(
      'h2',
      { id: `p-${p.provider.id}` },
      icon,
      ' ',
      p.provider.name,
      h('span', { class: 'muted' }, ` ${p.provider.custom_template} · ${p.provider.state}`),
    ),
    rows.length === 0
      ? h('p', { class: 'muted' }, 'No data sources yet.')
      : table(['Data source', 'Status', 'Last push', 'Warnings', 'Graph'], rows),
  );
}

/** Renders the providers page. */
export async function renderProviders(main: HTMLElement): Promise<void> {
  const providers = await loadProviders();
  if (providers.length === 0) {
    main.append(h('p', {}, 'No providers yet. Push a payload with a connector (oaa run) to see it here.'));
    return;
  }
  main.append(...providers.map(providerSection));
}
