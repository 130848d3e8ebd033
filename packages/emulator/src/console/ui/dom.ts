/** A small element builder and the page's live region; the console has no UI framework. */

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | null | undefined>;

/** Creates `<tag>` with attributes (`on<event>` ones become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** Replaces the children of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(
    ...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false),
  );
}

/** Says `text` to screen readers through the page's polite live region. */
export function announce(text: string): void {
  let region = document.getElementById('announce');
  if (region === null) {
    region = h('div', { id: 'announce', class: 'sr-only', 'aria-live': 'polite', role: 'status' });
    document.body.append(region);
  }
  region.textContent = text;
}

/** An error box for a failed call, announced. */
export function errorBox(err: unknown): HTMLElement {
  const text = err instanceof Error ? err.message : String(err);
  announce(text);
  return h('p', { class: 'error', role: 'alert' }, text);
}

/** A date-time as the reader's locale writes it, or a dash. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}
