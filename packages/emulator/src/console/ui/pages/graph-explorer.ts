/**
 * The graph explorer: pick a data source and an identity, and see what the identity can reach and
 * through what, drawn left to right (users, groups, roles, permissions, resources) on a canvas,
 * with search and zoom. The same facts are listed as text beside the drawing, for keyboards and
 * screen readers.
 */
import type { AccessExplanation } from '@oaakit/core';
import { api } from '../api.js';
import { announce, errorBox, h, replace } from '../dom.js';
import { accessReach, type AccessReach } from '../graph/access-reach.js';
import { CanvasView } from '../graph/canvas-view.js';
import { layout } from '../graph/layout.js';
import { buildGraph, LAYERS, type Graph, type GraphPayload } from '../graph/model.js';
import { loadProviders } from './providers.js';

const MAX_RESULTS = 25;
const MAX_LISTED = 300;

function edgePairs(g: Graph): Int32Array {
  const pairs = new Int32Array(g.src.length * 2);
  for (let i = 0; i < g.src.length; i++) {
    pairs[2 * i] = g.src[i]!;
    pairs[2 * i + 1] = g.dst[i]!;
  }
  return pairs;
}

function label(g: Graph, n: number): string {
  return `${g.names[n]!} (${g.types[n]!})`;
}

function all(g: Graph): number[] {
  return Array.from({ length: g.size }, (_, i) => i);
}

/** Renders the graph explorer page. */
export async function renderGraphExplorer(main: HTMLElement): Promise<void> {
  const providers = await loadProviders();
  const sources = providers.flatMap((p) =>
    p.data_sources.map((ds) => ({ ...ds, provider: p.provider.name })),
  );
  if (sources.length === 0) {
    main.append(h('p', {}, 'No data sources yet: push a payload first.'));
    return;
  }
  const wanted = new URLSearchParams(location.search).get('data_source_id');
  const select = h(
    'select',
    { id: 'ds' },
    ...sources.map((ds) =>
      h('option', { value: ds.id, selected: ds.id === wanted }, `${ds.provider} / ${ds.name} (${ds.status})`),
    ),
  );
  const search = h('input', {
    id: 'search',
    type: 'search',
    autocomplete: 'off',
    placeholder: 'name of a user, group, role, permission or resource',
    'aria-describedby': 'search-help',
  });
  const results = h('ul', { class: 'results', 'aria-label': 'Matching nodes' });
  const canvas = h('canvas', {
    class: 'graph',
    tabindex: 0,
    role: 'img',
    'aria-label': 'Access graph. Arrow keys pan, plus and minus zoom, 0 fits.',
  });
  const summary = h('div', { class: 'reach', 'aria-live': 'polite' });
  const details = h('div', { class: 'details', 'aria-live': 'polite' });
  const counts = h('p', { class: 'muted' });
  const status = h('div');
  let view: CanvasView | undefined;
  /** The data source's whole graph; search runs on it. */
  let graph: Graph | undefined;
  /** What the canvas shows: the whole graph, or one identity's reach. */
  let shown: Graph | undefined;
  let reach: { root: string; graph: Graph; access: AccessReach } | undefined;
  let asked = 0;

  const button = (text: string, onclick: () => void, extra: Record<string, string> = {}): HTMLButtonElement =>
    h('button', { type: 'button', onclick, ...extra }, text);

  function showWhole(): void {
    if (!graph || !view) return;
    reach = undefined;
    shown = graph;
    view.selected = -1;
    view.show(graph, layout(graph, all(graph)), edgePairs(graph));
    replace(summary, h('p', {}, 'Pick a user or group to see what it can reach.'));
    find();
  }

  /** Asks the emulator what identity `id` reaches (`POST /_emulator/access`) and draws it. */
  async function explore(id: string): Promise<void> {
    const mine = ++asked;
    replace(summary, h('p', { class: 'muted' }, 'Asking the emulator what it can reach…'));
    try {
      const answer = await api<{ values: AccessExplanation[] }>('POST', '/_emulator/access', {
        identity: id,
      });
      const access = answer.values[0];
      if (mine !== asked || !view || access === undefined) return;
      const built = accessReach(access);
      const g = buildGraph(built.payload);
      reach = { root: id, graph: g, access: built };
      shown = g;
      view.selected = 0;
      view.show(
        g,
        layout(g, all(g)),
        edgePairs(g),
        g.kinds.length > 0 ? Array.from(g.kind, (k) => g.kinds[k]!) : [],
      );
      // Fitted, unless that is too small to read: then the identity, centred.
      if (!view.readable()) view.centre(0);
      describeReach(g, built);
      find();
    } catch (err) {
      replace(summary, errorBox(err));
    }
  }

  function focusNode(g: Graph, n: number): void {
    if (!view) return;
    view.selected = n;
    view.centre(n);
    const paths = reach?.graph === g ? (reach.access.paths.get(g.ids[n]!) ?? []) : [];
    replace(
      details,
      h('h2', {}, 'Selected'),
      h('p', { 'data-testid': 'selected' }, label(g, n)),
      paths.length === 0
        ? null
        : h('div', {}, 'Reached through:', h('ul', { class: 'paths' }, ...paths.map((t) => h('li', {}, t)))),
    );
    announce(`Selected ${label(g, n)}`);
  }

  /** A node of the whole graph picked from the search results. */
  function pick(n: number): void {
    const g = graph;
    if (!g || !view) return;
    const id = g.ids[n]!;
    replace(details, h('h2', {}, 'Selected'), h('p', { 'data-testid': 'selected' }, label(g, n)));
    if (g.layer[n] === 0 || g.layer[n] === 1) {
      void explore(id);
      return;
    }
    const inReach = reach?.graph.ids.indexOf(id) ?? -1;
    if (reach && inReach >= 0) return focusNode(reach.graph, inReach);
    if (shown !== g) showWhole();
    focusNode(g, n);
  }

  /** A node of the drawn graph clicked on the canvas. */
  function clicked(n: number): void {
    const g = shown;
    if (!g) return;
    if (g === graph) return pick(n);
    focusNode(g, n);
  }

  function describeReach(g: Graph, r: AccessReach): void {
    const byLayer = LAYERS.map(() => 0);
    for (let n = 1; n < g.size; n++) byLayer[g.layer[n]!]!++;
    const parts = LAYERS.map((name, i) => `${byLayer[i]} ${name.toLowerCase()}`).filter(
      (t) => !t.startsWith('0 '),
    );
    const root = g.names[0]!;
    replace(
      summary,
      h('h2', {}, `What ${root} can reach`),
      h('p', { 'data-testid': 'reach-summary' }, parts.length === 0 ? 'Nothing.' : parts.join(', ')),
      r.truncated ? h('p', { class: 'muted' }, 'More destinations exist than the emulator listed.') : null,
      h(
        'ul',
        { class: 'paths' },
        ...r.destinations
          .slice(0, MAX_LISTED)
          .map((d) =>
            h(
              'li',
              {},
              h(
                'button',
                { type: 'button', class: 'link', onclick: () => focusNode(g, g.ids.indexOf(d.id)) },
                d.label,
              ),
              ` ${d.permissions.join(', ')}`,
              ...(r.paths.get(d.id) ?? []).map((t) => h('span', { class: 'muted path' }, t)),
            ),
          ),
      ),
    );
    announce(`${root} reaches ${parts.join(', ') || 'nothing'}`);
  }

  function find(): void {
    const g = graph;
    if (!g || !view) return;
    const q = search.value.trim().toLowerCase();
    view.marked = new Set();
    if (q === '') {
      replace(results);
      view.draw();
      return;
    }
    const hits: number[] = [];
    for (let i = 0; i < g.size; i++) if (g.lowerNames[i]!.includes(q)) hits.push(i);
    // Identities first: they are what one explores from.
    hits.sort((a, b) => g.layer[a]! - g.layer[b]!);
    const drawn = shown ?? g;
    const marked = new Set<number>();
    for (let i = 0; i < drawn.size && marked.size < 1000; i++)
      if (drawn.lowerNames[i]!.includes(q)) marked.add(i);
    view.marked = marked;
    view.draw();
    replace(
      results,
      ...hits
        .slice(0, MAX_RESULTS)
        .map((n) =>
          h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => pick(n) }, label(g, n))),
        ),
      hits.length > MAX_RESULTS ? h('li', { class: 'muted' }, `… ${hits.length - MAX_RESULTS} more`) : null,
    );
    announce(`${hits.length} matching nodes`);
  }

  async function load(): Promise<void> {
    replace(status, h('p', { class: 'muted' }, 'Loading the graph…'));
    const url = new URL(location.href);
    url.searchParams.set('data_source_id', select.value);
    history.replaceState(null, '', url);
    try {
      const payload = await api<GraphPayload>(
        'GET',
        `/console/api/graph?data_source_id=${encodeURIComponent(select.value)}`,
      );
      graph = buildGraph(payload);
      view ??= new CanvasView(canvas);
      view.onPick = clicked;
      replace(counts, `${graph.size.toLocaleString()} nodes, ${graph.src.length.toLocaleString()} edges`);
      replace(status);
      replace(details);
      showWhole();
      find();
      canvas.dataset.nodes = String(graph.size);
    } catch (err) {
      replace(status, errorBox(err));
    }
  }

  select.addEventListener('change', () => void load());
  search.addEventListener('input', find);
  search.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    results.querySelector('button')?.click();
  });

  main.append(
    h(
      'div',
      { class: 'toolbar' },
      h('label', { for: 'ds' }, 'Data source'),
      select,
      h('label', { for: 'search' }, 'Find'),
      search,
      button('Zoom in', () => view?.zoom(1.25)),
      button('Zoom out', () => view?.zoom(0.8)),
      button('Fit', () => view?.fit()),
      button('Whole graph', showWhole),
    ),
    h(
      'p',
      { id: 'search-help', class: 'muted' },
      'Type a name, then pick a user or group to see what it can reach; Enter picks the first match.',
    ),
    status,
    h(
      'div',
      { class: 'explorer' },
      h('div', { class: 'canvas-wrap' }, canvas, counts),
      h('aside', { 'aria-label': 'Reach' }, results, details, summary),
    ),
  );
  await load();
}
