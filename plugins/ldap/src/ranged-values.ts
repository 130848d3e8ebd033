/**
 * Ranged retrieval of a many-valued attribute (Active Directory's "range retrieval", used for a
 * group's `member`). AD returns at most MaxValRange values of an attribute per read (1,500 by
 * default): a read of `member` on a larger group returns `member;range=0-1499` and no `member`, and
 * the client asks for `member;range=1500-2999`, and so on, until the server answers with a range
 * that ends in `*` (`member;range=3000-*`).
 *
 * Samba returns every value of a plain `member` read, so code that only reacts to a split answer is
 * never exercised against it. This module therefore always asks for ranges itself, from the first
 * read on ({@link rangedAttribute}), and follows whatever range the server answers with: a server
 * with a smaller limit answers a shorter range, and the next read starts where that one ended.
 */
import type { Client, Entry } from 'ldapts';

/** Values asked for per read: AD's default MaxValRange. */
export const RANGE_STEP = 1500;

/** The attribute description that asks for values `low` to `low + step - 1`: `member;range=0-1499`. */
export function rangedAttribute(attribute: string, low = 0, step = RANGE_STEP): string {
  if (!Number.isSafeInteger(low) || low < 0)
    throw new Error(`range start must be a whole number, not ${low}`);
  if (!Number.isSafeInteger(step) || step < 1) throw new Error(`range step must be at least 1, not ${step}`);
  return `${attribute};range=${low}-${low + step - 1}`;
}

/** What one read returned for the attribute. */
export type RangePart =
  /** A slice of the values, starting at `low`; `high` is `'*'` on the last slice. */
  | { kind: 'range'; low: number; high: number | '*'; values: string[] }
  /** All values at once (the server ignored the range), or none (the entry has no such values). */
  | { kind: 'all'; values: string[] };

function strings(value: Entry[string] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (typeof v === 'string' ? v : v.toString('utf8')));
}

const RANGE_OPTION = /^(.+);range=(\d+)-(\d+|\*)$/i;

/**
 * Reads what `entry` holds of `attribute`, ranged or not. ldapts lists every attribute it asked for,
 * empty when the server did not return it, so an empty slice that does not end in `*` is the
 * request echoed back and not an answer; the answer is the slice with values, or the one ending in
 * `*` (which may be empty: the values ran out exactly where the previous slice ended).
 */
export function rangePart(entry: Entry, attribute: string): RangePart {
  const name = attribute.toLowerCase();
  let plain: string[] = [];
  let last: RangePart | undefined;
  let slice: RangePart | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'dn') continue;
    if (key.toLowerCase() === name) {
      plain = strings(value);
      continue;
    }
    const m = RANGE_OPTION.exec(key);
    if (!m || m[1]!.toLowerCase() !== name) continue;
    const values = strings(value);
    const low = Number(m[2]);
    const high = m[3] === '*' ? '*' : Number(m[3]);
    if (high === '*') last = { kind: 'range', low, high, values };
    else if (values.length > 0) {
      if (high < low || values.length !== high - low + 1)
        throw new Error(
          `${entry.dn}: ${key} holds ${values.length} values, which does not match its range ${low}-${high}`,
        );
      slice = { kind: 'range', low, high, values };
    }
  }
  return last ?? slice ?? { kind: 'all', values: plain };
}

/** Options of {@link readRangedValues}. */
export interface RangedReadOptions {
  /** Values to ask for per follow-up read; the server may answer fewer. Default {@link RANGE_STEP}. */
  step?: number;
  /** Called after each follow-up read, with the number of values so far (for tests and progress). */
  onRead?: (valuesSoFar: number) => void;
}

/**
 * Every value of `attribute` on the entry: what the entry already holds (from a search that asked
 * for {@link rangedAttribute}), then further base reads of the same entry, each asking for the next
 * slice, until the server answers a slice that ends in `*`.
 */
export async function readRangedValues(
  client: Client,
  entry: Entry,
  attribute: string,
  options: RangedReadOptions = {},
): Promise<string[]> {
  const step = options.step ?? RANGE_STEP;
  const values: string[] = [];
  let part = rangePart(entry, attribute);
  for (;;) {
    if (part.kind === 'all') {
      // The first answer, whole; or a follow-up read where the values ran out (or the server stopped
      // ranging, and sent all of them again).
      return values.length === 0 || part.values.length === 0 ? [...values, ...part.values] : part.values;
    }
    if (part.low !== values.length)
      throw new Error(
        `${entry.dn}: the server answered ${attribute} values from ${part.low}, but ${values.length} were read so far`,
      );
    values.push(...part.values);
    if (part.high === '*') return values;
    const request = rangedAttribute(attribute, values.length, step);
    const { searchEntries } = await client.search(entry.dn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: [request],
    });
    const next = searchEntries[0];
    if (next === undefined) throw new Error(`${entry.dn}: gone while its ${attribute} values were read`);
    part = rangePart(next, attribute);
    options.onRead?.(values.length);
  }
}
