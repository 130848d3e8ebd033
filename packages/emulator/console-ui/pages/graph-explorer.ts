/**
 * The graph explorer: pick a data source and an identity, and see what the identity can reach and
 * through what, drawn left to right (users, groups, roles, permissions, resources) on a canvas,
 * with search and zoom. The same facts are listed as text beside the drawing, for keyboards and
 * screen readers.
 */
import { api } from '../api.js';
import { announce, errorBox, h, replace } from '../dom.js';
import { CanvasView } from '../graph/canvas-view.js';
import { layout } from '../graph/layout.js';
import {
  APPLIES_ON,
  buildGraph,
  LAYERS,
  pathTo,
  reachOf,
  type Graph,
  type GraphPayload,
  type Reach,
} from '../graph/model.js';
import { loadProviders } from './providers.js';

const MAX_RESULTS = 25;
const MAX_LISTED = 300;

function allEdges(g: Graph): Int32Array {
  const pairs = new Int32Array(g.src.length * 2);
  for (let i = 0; i < g.src.length; i++) {
    pairs[2 * i] = g.src[i]!;
    pairs[2 * i + 1] = g.dst[i]!;
  }
  return pairs;
}

function stepName(kind: string): string {
  return kind.toLowerCase().replaceAll('_', ' ');
}

/** The access steps among reached nodes, each labelled with what it is ("member of", "has role"). */
function reachEdges(g: Graph, reach: Reach): { pairs: Int32Array; labels: string[] } {
  const pairs: number[] = [];
  const labels: string[] = [];
  for (const n of reach.order) {
    for (let at = g.stepStart[n]!; at < g.stepStart[n + 1]!; at++) {
      pairs.push(n, g.stepDst[at]!);
      labels.push(stepName(g.kinds[g.stepKind[at]!]!));
      if (g.stepScope[at]! >= 0) {
        pairs.push(g.stepDst[at]!, g.stepScope[at]!);
        labels.push(stepName(APPLIES_ON));
      }
    }
  }
  return { pairs: Int32Array.from(pairs), labels };
}

function label(g: Graph, n: number): string {
  return `${g.names[n]!} (${g.types[n]!})`;
}

function pathText(g: Graph, reach: Reach, n: number): string {
  return pathTo(g, reach, n)
    .map(([node, kind]) => (kind === null ? g.names[node]! : `${stepName(kind)} ${g.names[node]!}`))
    .join(' → ');
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
  let graph: Graph | undefined;
  let reach: Reach | undefined;

  const button = (text: string, onclick: () => void, extra: Record<string, string> = {}): HTMLButtonElement =>
    h('button', { type: 'button', onclick, ...extra }, text);

  function showWhole(): void {
    if (!graph || !view) return;
    reach = undefined;
    const all = Array.from({ length: graph.size }, (_, i) => i);
    view.show(graph, layout(graph, all), allEdges(graph));
    replace(summary, h('p', {}, 'Pick an identity to see what it can reach.'));
  }

  function pick(n: number): void {
    if (!graph || !view) return;
    const g = graph;
    if (g.layer[n] === 0 || g.layer[n] === 1) {
      reach = reachOf(g, n);
      const edges = reachEdges(g, reach);
      view.show(g, layout(g, reach.order), edges.pairs, edges.labels);
      describeReach(g, reach);
      view.selected = n;
      // Fitted, unless that is too small to read: then the identity, centred.
      if (!view.readable()) view.centre(n);
    } else {
      view.selected = n;
      view.centre(n);
    }
    replace(
      details,
      h('h2', {}, 'Selected'),
      h('p', { 'data-testid': 'selected' }, label(g, n)),
      reach?.reached[n] && n !== reach.root ? h('p', {}, 'Reached through: ', pathText(g, reach, n)) : null,
    );
    announce(`Selected ${label(g, n)}`);
  }

  function describeReach(g: Graph, r: Reach): void {
    const byLayer = LAYERS.map(() => 0);
    for (const n of r.order) if (n !== r.root) byLayer[g.layer[n]!]!++;
    const parts = LAYERS.map((name, i) => `${byLayer[i]} ${name.toLowerCase()}`).filter(
      (t) => !t.startsWith('0 '),
    );
    const listed = r.order.filter((n) => g.layer[n]! >= 3).slice(0, MAX_LISTED);
    replace(
      summary,
      h('h2', {}, `What ${g.names[r.root]!} can reach`),
      h('p', { 'data-testid': 'reach-summary' }, parts.length === 0 ? 'Nothing.' : parts.join(', ')),
      h(
        'ul',
        { class: 'paths' },
        ...listed.map((n) =>
          h(
            'li',
            {},
            h('button', { type: 'button', class: 'link', onclick: () => pick(n) }, label(g, n)),
            h('br'),
            h('span', { class: 'muted' }, pathText(g, r, n)),
          ),
        ),
      ),
    );
    announce(`${g.names[r.root]!} reaches ${parts.join(', ') || 'nothing'}`);
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
    view.marked = new Set(hits.slice(0, 1000));
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
      view.onPick = pick;
      view.selected = -1;
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
