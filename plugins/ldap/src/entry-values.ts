/**
 * Reading attribute values off a search entry. Attribute names compare without case, as LDAP
 * compares them: a server answers with its schema's spelling (`entryUUID`, `memberOf`) whatever the
 * request said. Values arrive as strings, or as buffers for the attributes read as binary.
 */
import { OaaError } from '@oaakit/core';
import type { Entry } from 'ldapts';
import type { LdapErrorCode } from './error-codes.js';

type Value = Entry[string];

/** The raw value of attribute `name` (any case), or undefined when the entry has none. */
function raw(entry: Entry, name: string): Value | undefined {
  const exact = entry[name];
  if (exact !== undefined && !(Array.isArray(exact) && exact.length === 0)) return exact;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(entry)) {
    if (key === 'dn' || key.toLowerCase() !== wanted) continue;
    const v = entry[key]!;
    if (!(Array.isArray(v) && v.length === 0)) return v;
  }
  return undefined;
}

/** Every value of attribute `name`, as strings (buffers are read as UTF-8). */
export function values(entry: Entry, name: string): string[] {
  const v = raw(entry, name);
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (typeof x === 'string' ? x : x.toString('utf8')));
}

/** Every value of attribute `name`, as buffers (strings are encoded as UTF-8). */
export function buffers(entry: Entry, name: string): Buffer[] {
  const v = raw(entry, name);
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (typeof x === 'string' ? Buffer.from(x, 'utf8') : x));
}

/** The first value of attribute `name`, or undefined when it has none or only an empty one. */
export function first(entry: Entry, name: string): string | undefined {
  const v = values(entry, name)[0];
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The first value of attribute `name`; throws `ENTRY_INVALID` naming the entry and the attribute
 * when there is none (`what` says what the value is for).
 */
export function required(entry: Entry, name: string, what: string): string {
  const v = first(entry, name);
  if (v === undefined) throw missing(entry, name, what);
  return v;
}

/** The error of an entry without a value the mapping needs. */
export function missing(entry: Entry, name: string, what: string): OaaError<LdapErrorCode> {
  return new OaaError<LdapErrorCode>(`entry "${entry.dn}" has no ${name} (${what})`, {
    code: 'ENTRY_INVALID',
    details: { dn: entry.dn, attribute: name },
    hints: [
      `leave such entries out with the filter, e.g. add (${name}=*) to it, or give the entry a ${name}`,
    ],
  });
}

const GENERALIZED_TIME =
  /^(\d{4})(\d{2})(\d{2})(\d{2})(?:(\d{2})(\d{2})?)?(?:[.,](\d+))?(Z|[+-]\d{2}(?:\d{2})?)$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * An LDAP GeneralizedTime (`20240131235959Z`, `20240131235959.123456Z`, `202401312359+0100`...) as
 * an RFC 3339 timestamp in UTC, converted exactly: a fraction keeps every digit it has (a fraction
 * of an hour or a minute becomes minutes, seconds and their decimal digits), an offset is applied.
 * Undefined when `value` is not a GeneralizedTime.
 *
 * @example
 * generalizedTime('20240131235959.5+0100') // '2024-01-31T22:59:59.5Z'
 */
export function generalizedTime(value: string): string | undefined {
  const m = GENERALIZED_TIME.exec(value);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string | undefined,
    string,
  ];
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi ?? '0', s ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // A leap second (60) is allowed by the syntax; JavaScript dates carry it into the next minute.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  // The fraction is of the last unit given: seconds, minutes or hours. In seconds, it is an
  // exact decimal of as many digits (an hour is 3600 s, a minute 60 s).
  const unit = s !== undefined ? 1n : mi !== undefined ? 60n : 3600n;
  let extraSeconds = 0;
  let decimals = '';
  if (fraction !== undefined) {
    const scale = 10n ** BigInt(fraction.length);
    const scaled = BigInt(fraction) * unit;
    extraSeconds = Number(scaled / scale);
    decimals = (scaled % scale).toString().padStart(fraction.length, '0').replace(/0+$/, '');
  }
  const date = new Date(0);
  // setUTCFullYear takes years 0-99 as they are (Date.UTC would read them as 1900-1999).
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second + extraSeconds, 0);
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5) || 0);
    date.setTime(date.getTime() - sign * minutes * 60_000);
  }
  if (date.getUTCFullYear() < 0) return undefined;
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
    `${decimals === '' ? '' : `.${decimals}`}Z`
  );
}
