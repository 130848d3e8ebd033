/**
 * A small element builder and the parts every page is made of (tables, form fields, checkbox
 * groups, buttons, the action runner and the page's live region); the console has no UI framework.
 */

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

/** `count` and `noun`, plural unless one: `1 event`, `3 events`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A table: one column header per name of `columns`, then `rows` (or a body kept by the caller). */
export function table(
  columns: readonly string[],
  rows: readonly Node[] | HTMLTableSectionElement,
  attrs: Attrs = {},
): HTMLTableElement {
  return h(
    'table',
    attrs,
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
    rows instanceof HTMLTableSectionElement ? rows : h('tbody', {}, ...rows),
  );
}

/** A `type="button"` button running `onclick`. */
export function button(text: string, onclick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  return h('button', { type: 'button', ...attrs, onclick }, text);
}

/** A click handler that runs `action` only when the reader confirms `question`. */
export function confirmed(question: string, action: () => void): () => void {
  return () => {
    if (confirm(question)) action();
  };
}

/** A form row: the label of `control` (by its id), then the control. */
export function field(text: string, control: HTMLElement): [HTMLLabelElement, HTMLElement] {
  return [h('label', { for: control.id }, text), control];
}

/** A `<select>` of `values`, led by an `any` option (value '') when `any` is given. */
export function select(attrs: Attrs, values: readonly string[], any?: string): HTMLSelectElement {
  return h(
    'select',
    attrs,
    any === undefined ? null : h('option', { value: '' }, any),
    ...values.map((v) => h('option', { value: v }, v)),
  );
}

/** Checkboxes named `name`, one per value, in a fieldset; `checked()` answers the ticked values. */
export interface CheckboxGroup<T extends string> {
  fieldset: HTMLFieldSetElement;
  checked(): T[];
}

/** A {@link CheckboxGroup} under `legend` (seen only by screen readers with `hideLegend`). */
export function checkboxGroup<T extends string>(
  legend: string,
  name: string,
  values: readonly T[],
  options: { hideLegend?: boolean; idPrefix?: string } = {},
): CheckboxGroup<T> {
  const boxes = values.map((value) =>
    h('input', {
      type: 'checkbox',
      name,
      value,
      id: options.idPrefix === undefined ? null : `${options.idPrefix}${value}`,
    }),
  );
  const fieldset = h(
    'fieldset',
    { class: 'checks' },
    h('legend', { class: options.hideLegend ? 'sr-only' : null }, legend),
    ...boxes.map((box) => h('label', {}, box, ` ${box.value}`)),
  );
  return {
    fieldset,
    checked: () => values.filter((_, i) => boxes[i]!.checked),
  };
}

/** Runs `submit` when the form is sent, instead of leaving the page. */
export function onSubmit<F extends HTMLFormElement>(form: F, submit: () => Promise<void>): F {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  return form;
}

/** Runs one action of a page (a call of the API) and says how it went; `done` is announced when given. */
export type Run = (what: () => Promise<unknown>, done?: string) => Promise<void>;

/**
 * The action runner of a page: after an action succeeds, `status` is cleared (or, with `note`,
 * shows `done`) and `then` redraws what changed; a failure shows its error in `status`.
 */
export function act(status: HTMLElement, then: () => Promise<void>, note = false): Run {
  return async (what, done) => {
    try {
      await what();
      replace(status, note && done ? h('p', { class: 'ok', role: 'status' }, done) : null);
      if (done) announce(done);
      await then();
    } catch (err) {
      replace(status, errorBox(err));
    }
  };
}
