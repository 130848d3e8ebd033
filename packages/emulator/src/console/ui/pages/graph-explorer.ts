/**
 * The graph explorer: pick a data source and an identity, and see what the identity can reach and
 * through what, drawn left to right (users, groups, roles, permissions, resources) on a canvas,
 * with search and zoom. The same facts are listed as text beside the drawing, for keyboards and
 * screen readers.
 */
import type { AccessExplanation } from '@oaakit/core';
import { api } from '../api.js';
import { announce, button, errorBox, h, replace } from '../dom.js';
import { accessReach, type AccessReach } from '../graph/access-reach.js';
import { CanvasView } from '../graph/canvas-view.js';
import { layout } from '../graph/layout.js';
import { buildGraph, LAYERS, type Graph, type GraphPayload } from '../graph/model.js';
import { loadProviders, type DataSourceOverview } from './providers.js';

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

/** The data sources to pick from, each named with its provider. */
type Source = DataSourceOverview & { provider: string };

/** The explorer's controls and panes, and what it shows. */
class Explorer {
  readonly select: HTMLSelectElement;
  readonly search = h('input', {
    id: 'search',
    type: 'search',
    autocomplete: 'off',
    placeholder: 'name of a user, group, role, permission or resource',
    'aria-describedby': 'search-help',
  });
  readonly results = h('ul', { class: 'results', 'aria-label': 'Matching nodes' });
  readonly canvas = h('canvas', {
    class: 'graph',
    tabindex: 0,
    role: 'img',
    'aria-label': 'Access graph. Arrow keys pan, plus and minus zoom, 0 fits.',
  });
  readonly summary = h('div', { class: 'reach', 'aria-live': 'polite' });
  readonly details = h('div', { class: 'details', 'aria-live': 'polite' });
  readonly counts = h('p', { class: 'muted' });
  readonly status = h('div');
  view: CanvasView | undefined;
  /** The data source's whole graph; search runs on it. */
  private graph: Graph | undefined;
  /** What the canvas shows: the whole graph, or one identity's reach. */
  private shown: Graph | undefined;
  private reach: { root: string; graph: Graph; access: AccessReach } | undefined;
  private asked = 0;

  constructor(sources: Source[], wanted: string | null) {
    this.select = h(
      'select',
      { id: 'ds' },
      ...sources.map((ds) =>
        h(
          'option',
          { value: ds.id, selected: ds.id === wanted },
          `${ds.provider} / ${ds.name} (${ds.status})`,
        ),
      ),
    );
    this.select.addEventListener('change', () => void this.load());
    this.search.addEventListener('input', () => this.find());
    this.search.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      this.results.querySelector('button')?.click();
    });
  }

  /** Loads the chosen data source's whole graph (`/console/api/graph`) and draws it. */
  async load(): Promise<void> {
    replace(this.status, h('p', { class: 'muted' }, 'Loading the graph…'));
    const url = new URL(location.href);
    url.searchParams.set('data_source_id', this.select.value);
    history.replaceState(null, '', url);
    try {
      const payload = await api<GraphPayload>(
        'GET',
        `/console/api/graph?data_source_id=${encodeURIComponent(this.select.value)}`,
      );
      const graph = buildGraph(payload);
      this.graph = graph;
      this.view ??= new CanvasView(this.canvas);
      this.view.onPick = (n) => this.clicked(n);
      replace(
        this.counts,
        `${graph.size.toLocaleString()} nodes, ${graph.src.length.toLocaleString()} edges`,
      );
      replace(this.status);
      replace(this.details);
      this.showWhole();
      this.find();
      this.canvas.dataset.nodes = String(graph.size);
    } catch (err) {
      replace(this.status, errorBox(err));
    }
  }

  /** Draws the whole graph again, leaving the identity explored. */
  showWhole(): void {
    const { graph, view } = this;
    if (!graph || !view) return;
    this.reach = undefined;
    this.shown = graph;
    view.selected = -1;
    view.show(graph, layout(graph, all(graph)), edgePairs(graph));
    replace(this.summary, h('p', {}, 'Pick a user or group to see what it can reach.'));
    this.find();
  }

  /** Asks the emulator what identity `id` reaches (`POST /_emulator/access`) and draws it. */
  private async explore(id: string): Promise<void> {
    const mine = ++this.asked;
    replace(this.summary, h('p', { class: 'muted' }, 'Asking the emulator what it can reach…'));
    try {
      const answer = await api<{ values: AccessExplanation[] }>('POST', '/_emulator/access', {
        identity: id,
      });
      const access = answer.values[0];
      const view = this.view;
      if (mine !== this.asked || !view || access === undefined) return;
      const built = accessReach(access);
      const g = buildGraph(built.payload);
      this.reach = { root: id, graph: g, access: built };
      this.shown = g;
      view.selected = 0;
      view.show(
        g,
        layout(g, all(g)),
        edgePairs(g),
        g.kinds.length > 0 ? Array.from(g.kind, (k) => g.kinds[k]!) : [],
      );
      // Fitted, unless that is too small to read: then the identity, centred.
      if (!view.readable()) view.centre(0);
      this.describeReach(g, built);
      this.find();
    } catch (err) {
      replace(this.summary, errorBox(err));
    }
  }

  /** Selects and centres node `n` of `g`, listing how the identity explored reaches it. */
  private focusNode(g: Graph, n: number): void {
    if (!this.view) return;
    this.view.selected = n;
    this.view.centre(n);
    const paths = this.reach?.graph === g ? (this.reach.access.paths.get(g.ids[n]!) ?? []) : [];
    replace(
      this.details,
      h('h2', {}, 'Selected'),
      h('p', { 'data-testid': 'selected' }, label(g, n)),
      paths.length === 0
        ? null
        : h('div', {}, 'Reached through:', h('ul', { class: 'paths' }, ...paths.map((t) => h('li', {}, t)))),
    );
    announce(`Selected ${label(g, n)}`);
  }

  /** A node of the whole graph picked from the search results. */
  private pick(n: number): void {
    const g = this.graph;
    if (!g || !this.view) return;
    const id = g.ids[n]!;
    replace(this.details, h('h2', {}, 'Selected'), h('p', { 'data-testid': 'selected' }, label(g, n)));
    if (g.layer[n] === 0 || g.layer[n] === 1) {
      void this.explore(id);
      return;
    }
    const reach = this.reach;
    const inReach = reach?.graph.ids.indexOf(id) ?? -1;
    if (reach && inReach >= 0) return this.focusNode(reach.graph, inReach);
    if (this.shown !== g) this.showWhole();
    this.focusNode(g, n);
  }

  /** A node of the drawn graph clicked on the canvas. */
  private clicked(n: number): void {
    const g = this.shown;
    if (!g) return;
    if (g === this.graph) return this.pick(n);
    this.focusNode(g, n);
  }

  /** Lists what the identity explored reaches, by column, and each destination with its paths. */
  private describeReach(g: Graph, r: AccessReach): void {
    const byLayer = LAYERS.map(() => 0);
    for (let n = 1; n < g.size; n++) byLayer[g.layer[n]!]!++;
    const parts = LAYERS.map((name, i) => `${byLayer[i]} ${name.toLowerCase()}`).filter(
      (t) => !t.startsWith('0 '),
    );
    const root = g.names[0]!;
    const destinations = r.destinations.slice(0, MAX_LISTED).map((d) =>
      h(
        'li',
        {},
        button(d.label, () => this.focusNode(g, g.ids.indexOf(d.id)), { class: 'link' }),
        ` ${d.permissions.join(', ')}`,
        ...(r.paths.get(d.id) ?? []).map((t) => h('span', { class: 'muted path' }, t)),
      ),
    );
    replace(
      this.summary,
      h('h2', {}, `What ${root} can reach`),
      h('p', { 'data-testid': 'reach-summary' }, parts.length === 0 ? 'Nothing.' : parts.join(', ')),
      r.truncated ? h('p', { class: 'muted' }, 'More destinations exist than the emulator listed.') : null,
      h('ul', { class: 'paths' }, ...destinations),
    );
    announce(`${root} reaches ${parts.join(', ') || 'nothing'}`);
  }

  /** Marks the drawn nodes whose name holds the search text, and lists the whole graph's matches. */
  private find(): void {
    const { graph: g, view } = this;
    if (!g || !view) return;
    const q = this.search.value.trim().toLowerCase();
    view.marked = new Set();
    if (q === '') {
      replace(this.results);
      view.draw();
      return;
    }
    const hits: number[] = [];
    for (let i = 0; i < g.size; i++) if (g.lowerNames[i]!.includes(q)) hits.push(i);
    // Identities first: they are what one explores from.
    hits.sort((a, b) => g.layer[a]! - g.layer[b]!);
    const drawn = this.shown ?? g;
    const marked = new Set<number>();
    for (let i = 0; i < drawn.size && marked.size < 1000; i++)
      if (drawn.lowerNames[i]!.includes(q)) marked.add(i);
    view.marked = marked;
    view.draw();
    replace(
      this.results,
      ...hits.slice(0, MAX_RESULTS).map((n) =>
        h(
          'li',
          {},
          button(label(g, n), () => this.pick(n), { class: 'link' }),
        ),
      ),
      hits.length > MAX_RESULTS ? h('li', { class: 'muted' }, `… ${hits.length - MAX_RESULTS} more`) : null,
    );
    announce(`${hits.length} matching nodes`);
  }
}

function toolbar(x: Explorer): HTMLElement {
  return h(
    'div',
    { class: 'toolbar' },
    h('label', { for: 'ds' }, 'Data source'),
    x.select,
    h('label', { for: 'search' }, 'Find'),
    x.search,
    button('Zoom in', () => x.view?.zoom(1.25)),
    button('Zoom out', () => x.view?.zoom(0.8)),
    button('Fit', () => x.view?.fit()),
    button('Whole graph', () => x.showWhole()),
  );
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
  const explorer = new Explorer(sources, new URLSearchParams(location.search).get('data_source_id'));
  main.append(
    toolbar(explorer),
    h(
      'p',
      { id: 'search-help', class: 'muted' },
      'Type a name, then pick a user or group to see what it can reach; Enter picks the first match.',
    ),
    explorer.status,
    h(
      'div',
      { class: 'explorer' },
      h('div', { class: 'canvas-wrap' }, explorer.canvas, explorer.counts),
      h('aside', { 'aria-label': 'Reach' }, explorer.results, explorer.details, explorer.summary),
    ),
  );
  await explorer.load();
}
