/**
 * The list filter: `<field> <op> "<value>"` conditions joined with `and`, e.g.
 * `name eq "My App" and state eq "ENABLED"`. Values are double-quoted; `\"` and `\\` escape inside.
 *
 * In a URL the spaces must arrive as `+` or `%20`. A `%2B` decodes to a literal `+` where a space
 * belongs, and the filter no longer parses: the spec warns of exactly this error.
 */
import { badField } from '../errors.js';
import { ownEntry } from '../http/own-entry.js';

export const FILTER_OPS = ['eq', 'ne', 'co', 'sw'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface FilterCondition {
  field: string;
  op: FilterOp;
  value: string;
}

const FIELD = /[A-Za-z_][\w.]*/y;
const SPACE = /[ \t]+/y;

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  sticky(re: RegExp): string | undefined {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (!m) return undefined;
    this.pos = re.lastIndex;
    return m[0];
  }

  done(): boolean {
    return this.pos >= this.text.length;
  }
}

function fail(text: string, pos: number, expected: string): never {
  const at = text.slice(pos, pos + 20);
  let description =
    `cannot parse filter ${JSON.stringify(text)} at position ${pos}: expected ${expected}` +
    (at ? `, found ${JSON.stringify(at)}` : ', found the end');
  if (text[pos] === '+' || /\+/.test(at)) {
    description += `; a "+" stands where a space belongs, which happens when a space is encoded as %2B: encode spaces as "+" or %20`;
  }
  description += `. Form: <field> eq "<value>" [and ...]`;
  throw badField('filter', description);
}

function readQuoted(s: Scanner): string {
  const { text } = s;
  if (text[s.pos] !== '"') fail(text, s.pos, 'a double-quoted value');
  let out = '';
  let i = s.pos + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      s.pos = i + 1;
      return out;
    }
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) break;
      out += next;
      i += 2;
      continue;
    }
    out += c;
    i += 1;
  }
  return fail(text, text.length, 'a closing double quote');
}

/** Parses `text` into conditions on `fields`; throws 400 InvalidArgument naming `filter`. */
export function parseFilter(text: string, fields: readonly string[]): FilterCondition[] {
  const s = new Scanner(text.trim());
  const out: FilterCondition[] = [];
  if (s.done()) return out;
  for (;;) {
    const start = s.pos;
    const field = s.sticky(FIELD);
    if (field === undefined) fail(s.text, start, 'a field name');
    if (!fields.includes(field)) {
      throw badField(
        'filter',
        `cannot filter on ${JSON.stringify(field)}: allowed fields are ${fields.join(', ')}`,
      );
    }
    if (s.sticky(SPACE) === undefined) fail(s.text, s.pos, 'a space after the field name');
    const opStart = s.pos;
    const op = s.sticky(/[A-Za-z]+/y)?.toLowerCase();
    if (op === undefined || !(FILTER_OPS as readonly string[]).includes(op))
      fail(s.text, opStart, `an operator (${FILTER_OPS.join(', ')})`);
    if (s.sticky(SPACE) === undefined) fail(s.text, s.pos, 'a space after the operator');
    out.push({ field, op: op as FilterOp, value: readQuoted(s) });
    if (s.done()) return out;
    if (s.sticky(SPACE) === undefined) fail(s.text, s.pos, 'a space, then "and"');
    const andStart = s.pos;
    if (s.sticky(/and/iy) === undefined) fail(s.text, andStart, '"and"');
    if (s.sticky(SPACE) === undefined) fail(s.text, s.pos, 'a space after "and"');
  }
}

/** SQL for the conditions over the given column map; values are bound parameters. */
export function filterSql(
  conditions: readonly FilterCondition[],
  columns: Record<string, string>,
): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  for (const c of conditions) {
    const col = ownEntry(columns, c.field);
    if (col === undefined) throw badField('filter', `cannot filter on ${JSON.stringify(c.field)}`);
    switch (c.op) {
      case 'eq':
        parts.push(`${col} = ?`);
        params.push(c.value);
        break;
      case 'ne':
        parts.push(`${col} <> ?`);
        params.push(c.value);
        break;
      case 'co':
        parts.push(`instr(${col}, ?) > 0`);
        params.push(c.value);
        break;
      case 'sw':
        parts.push(`substr(${col}, 1, length(?)) = ?`);
        params.push(c.value, c.value);
        break;
    }
  }
  return { sql: parts.join(' AND '), params };
}
