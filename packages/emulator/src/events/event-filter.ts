/**
 * The SCIM filter of `GET /api/preview/events`, parsed with `scim2-parse-filter` and compiled to a
 * parameterised SQL condition on the events table. Bounded before parsing (length, nesting), so no
 * input reaches the parser's recursion deep enough to overflow the stack; every parser or compiler
 * complaint is a 400 on field `filter`.
 *
 * Decisions: attribute names are case-insensitive (SCIM); `eq ne co sw ew` on text compare without
 * regard to ASCII case (SCIM's caseExact=false); `gt ge lt le` on `timestamp` compare times (the value
 * must be an RFC 3339 time), on other attributes compare text; `eq null` is "not set"; the start time
 * is the latest `timestamp ge|gt` bound among the top-level `and` terms.
 */
import { parse, type Filter } from 'scim2-parse-filter';
import { badField } from '../errors.js';

/** Longest accepted filter, in characters. */
export const MAX_FILTER_LENGTH = 4096;
/** Deepest accepted nesting of parentheses. */
export const MAX_FILTER_DEPTH = 32;
/** Most comparisons in one filter. */
export const MAX_FILTER_TERMS = 100;

/** The attributes a filter may name, and their columns. */
export const FILTER_ATTRIBUTES = [
  'category',
  'severity',
  'event_type',
  'timestamp',
  'entity',
  'entity_id',
  'provider_id',
  'name',
] as const;

/** A compiled filter: a SQL condition with its parameters, and the start time it implies. */
export interface CompiledFilter {
  sql: string;
  params: string[];
  /** The lower bound on `timestamp` that every match satisfies (top-level `and` terms), if any. */
  startTime: string | undefined;
}

function fail(description: string): never {
  throw badField('filter', description);
}

function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(' || c === '[') max = Math.max(max, ++depth);
    else if (c === ')' || c === ']') depth--;
  }
  return max;
}

function column(attrPath: string): string {
  const name = attrPath.toLowerCase();
  if (!(FILTER_ATTRIBUTES as readonly string[]).includes(name))
    fail(`unknown attribute ${JSON.stringify(attrPath)}: use one of ${FILTER_ATTRIBUTES.join(', ')}`);
  return name;
}

/** An RFC 3339 time as stored (`toISOString`), or a 400 naming the value. */
export function normalizeTime(value: unknown, field = 'filter'): string {
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms))
    throw badField(field, `${JSON.stringify(value)} is not an RFC 3339 time such as "2026-01-31T12:00:00Z"`);
  return new Date(ms).toISOString();
}

interface State {
  params: string[];
  terms: number;
}

function compare(f: Extract<Filter, { compValue: unknown }>, state: State): string {
  const col = column(f.attrPath);
  const value = f.compValue;
  if (value === null) {
    if (f.op === 'eq') return `${col} IS NULL`;
    if (f.op === 'ne') return `${col} IS NOT NULL`;
    fail(`${f.op} cannot compare with null`);
  }
  if (typeof value !== 'string')
    fail(`the value compared with ${f.attrPath} must be a quoted string, not ${String(value)}`);
  const isTime = col === 'timestamp';
  const v = isTime ? normalizeTime(value) : value;
  const text = isTime ? col : `lower(${col})`;
  const p = (): string => {
    state.params.push(v);
    return isTime ? '?' : 'lower(?)';
  };
  if (v === '' && (f.op === 'co' || f.op === 'sw' || f.op === 'ew')) return `${col} IS NOT NULL`;
  switch (f.op) {
    case 'eq':
      return `${text} = ${p()}`;
    case 'ne':
      return `(${col} IS NULL OR ${text} <> ${p()})`;
    case 'co':
      return `instr(${text}, ${p()}) > 0`;
    case 'sw':
      return `substr(${text}, 1, length(${p()})) = ${p()}`;
    case 'ew':
      return `(length(${col}) >= length(${p()}) AND substr(${text}, -length(${p()})) = ${p()})`;
    case 'gt':
      return `${text} > ${p()}`;
    case 'ge':
      return `${text} >= ${p()}`;
    case 'lt':
      return `${text} < ${p()}`;
    case 'le':
      return `${text} <= ${p()}`;
  }
}

function compile(f: Filter, state: State): string {
  if (++state.terms > MAX_FILTER_TERMS) fail(`has more than ${MAX_FILTER_TERMS} terms`);
  switch (f.op) {
    case 'and':
    case 'or':
      return `(${f.filters.map((x) => compile(x, state)).join(` ${f.op.toUpperCase()} `)})`;
    case 'not':
      return `NOT (${compile(f.filter, state)})`;
    case 'pr': {
      const col = column(f.attrPath);
      return `(${col} IS NOT NULL AND ${col} <> '')`;
    }
    case '[]':
      return fail('value paths (attr[filter]) are not supported: event attributes are not multi-valued');
    case 'eq':
    case 'ne':
    case 'co':
    case 'sw':
    case 'ew':
    case 'gt':
    case 'ge':
    case 'lt':
    case 'le':
      return compare(f, state);
  }
}

function startTimeOf(f: Filter): string | undefined {
  const terms = f.op === 'and' ? f.filters : [f];
  let start: string | undefined;
  for (const t of terms) {
    if (t.op === 'and') {
      const inner = startTimeOf(t);
      if (inner !== undefined && (start === undefined || inner > start)) start = inner;
    }
    if ((t.op === 'ge' || t.op === 'gt') && 'attrPath' in t && t.attrPath.toLowerCase() === 'timestamp') {
      const v = normalizeTime((t as { compValue: unknown }).compValue);
      if (start === undefined || v > start) start = v;
    }
  }
  return start;
}

/** Parses a SCIM filter text (bounded) into its syntax tree, or a 400 on `filter`. */
export function parseScimFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) fail(`is longer than ${MAX_FILTER_LENGTH} characters`);
  if (depthOf(text) > MAX_FILTER_DEPTH) fail(`nests parentheses deeper than ${MAX_FILTER_DEPTH}`);
  try {
    return parse(text);
  } catch (err) {
    return fail(`is not a SCIM filter (${err instanceof Error ? err.message : 'unreadable'})`);
  }
}

/** Compiles `filter` (absent or empty: every event) into a SQL condition. */
export function compileEventFilter(text: string | undefined): CompiledFilter {
  if (text === undefined || text.trim() === '') return { sql: '1', params: [], startTime: undefined };
  const tree = parseScimFilter(text);
  const state: State = { params: [], terms: 0 };
  let sql: string;
  try {
    sql = compile(tree, state);
  } catch (err) {
    if (err instanceof RangeError) fail('is too deeply nested');
    throw err;
  }
  return { sql, params: state.params, startTime: startTimeOf(tree) };
}
