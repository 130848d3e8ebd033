/** Readers of cell values: booleans, dates, employment types. Each returns a value or a problem text. */
import { isRfc3339 } from '@oaakit/core';

/** Words read as true by default (case does not matter). */
export const DEFAULT_TRUE_WORDS = ['true', 't', 'yes', 'y', '1', 'active', 'enabled'] as const;
/** Words read as false by default; an empty value is false too. */
export const DEFAULT_FALSE_WORDS = ['false', 'f', 'no', 'n', '0', 'inactive', 'disabled'] as const;

/** A value, or what is wrong with the text it was read from. */
export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = (problem: string): Read<never> => ({ ok: false, problem });

/** Reads boolean words; built once per run. */
export class BooleanReader {
  private readonly words = new Map<string, boolean>();

  constructor(
    trueWords: readonly string[] = DEFAULT_TRUE_WORDS,
    falseWords: readonly string[] = DEFAULT_FALSE_WORDS,
  ) {
    for (const w of falseWords) this.words.set(w.toLowerCase(), false);
    for (const w of trueWords) this.words.set(w.toLowerCase(), true);
  }

  read(text: string): Read<boolean> {
    if (text === '') return ok(false);
    const value = this.words.get(text.toLowerCase());
    if (value !== undefined) return ok(value);
    const t = [...this.words].filter(([, v]) => v).map(([w]) => w);
    const f = [...this.words].filter(([, v]) => !v).map(([w]) => w);
    return bad(
      `${JSON.stringify(text)} is not a boolean: use one of ${t.join(', ')} (true) or ${f.join(', ')} or empty (false)`,
    );
  }
}

/** Order of day and month in dates that put the year last, such as `03/04/2024`. */
export type DateOrder = 'MDY' | 'DMY';

const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/;
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

const pad = (s: string) => (s.length === 1 ? `0${s}` : s);

/**
 * Reads a date or a date-time and returns it as RFC 3339. Accepted: `YYYY-MM-DD`, `YYYY/MM/DD`,
 * `MM/DD/YYYY` (or `DD/MM/YYYY` with `order` `DMY`; `.` works as well as `/`), and ISO 8601 / RFC 3339
 * date-times (`T` or a space between date and time, seconds and fraction optional). A date becomes
 * midnight UTC; a date-time without an offset is taken as UTC.
 */
export function readDate(text: string, order: DateOrder): Read<string> {
  let iso: string | undefined;
  let m = ISO_DATE.exec(text);
  if (m) iso = `${m[1]}-${pad(m[2]!)}-${pad(m[3]!)}T00:00:00Z`;
  else if ((m = YEAR_LAST.exec(text))) {
    const [month, day] = order === 'MDY' ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
    iso = `${m[3]}-${pad(month)}-${pad(day)}T00:00:00Z`;
  } else if ((m = ISO_TIME.exec(text))) {
    iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${offset(m[8])}`;
  }
  if (iso !== undefined && isRfc3339(iso)) return ok(iso);
  const slashed = order === 'MDY' ? 'MM/DD/YYYY' : 'DD/MM/YYYY';
  return bad(
    `${JSON.stringify(text)} is not a date: use YYYY-MM-DD, YYYY/MM/DD, ${slashed} or an RFC 3339 timestamp`,
  );
}

function offset(zone: string | undefined): string {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.length > 2 ? digits.slice(2) : '00'}`;
}

/**
 * Reads employment types: one or several separated by `,` `;` or `|`, written the way the service
 * spells them (`Full-time` and `full time` become `FULL_TIME`).
 */
export function readEmploymentTypes(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[,;|]/)) {
    const t = part
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, '_');
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}
