/**
 * The building blocks every payload schema is made of. The service's string rules live here once:
 * every string in a pushed payload is valid UTF-8 of at most 256 bytes (spec, Conventions), and any
 * optional value may be null.
 */
import * as z from 'zod';

/** Longest string the service accepts in a payload, in UTF-8 bytes. */
export const MAX_STRING_BYTES = 256;

/** Whether a JS string encodes to valid UTF-8 (no lone surrogates) of at most `max` bytes. */
export function fitsUtf8(value: string, max: number): boolean {
  // A UTF-16 code unit encodes to at most 3 bytes, so short strings need no byte count.
  if (value.length * 3 <= max) return value.isWellFormed();
  return value.isWellFormed() && Buffer.byteLength(value, 'utf8') <= max;
}

/** A payload string: valid UTF-8, at most 256 bytes. */
export const payloadString = () =>
  z.string().refine((v) => fitsUtf8(v, MAX_STRING_BYTES), {
    error: `must be valid UTF-8 of at most ${MAX_STRING_BYTES} bytes`,
  });

/** A payload string that must also match `pattern`; `allowed` says what is allowed, for messages. */
export const patternString = (pattern: RegExp, allowed: string) =>
  payloadString().regex(pattern, { error: `must be ${allowed}` });

/** A payload string of at most `max` characters (and, like every payload string, 256 bytes). */
export const limitedText = (max: number) =>
  payloadString().max(max, { error: `must be at most ${max} characters` });

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** Two ASCII digits of `s` at `i` as a number. */
const two = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + (s.charCodeAt(i + 1) - 48);

// Payloads repeat a few timestamps many times (one per import batch, per field): remember the last
// valid ones. The slots start out holding a valid timestamp, never `''`, which is not one.
const EPOCH = '1970-01-01T00:00:00Z';
const recent = [EPOCH, EPOCH, EPOCH, EPOCH];
let next = 0;

/** Whether `value` is an RFC 3339 date-time with a real calendar date and an offset. */
export function isRfc3339(value: string): boolean {
  if (value === recent[0] || value === recent[1] || value === recent[2] || value === recent[3]) return true;
  if (!RFC3339.test(value)) return false;
  const year = two(value, 0) * 100 + two(value, 2);
  const month = two(value, 5);
  const day = two(value, 8);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay =
    month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  const end = value.length;
  const zone = value.charCodeAt(end - 1) === 90 || value.charCodeAt(end - 1) === 122 ? -1 : end - 5;
  const ok =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= maxDay &&
    two(value, 11) <= 23 &&
    two(value, 14) <= 59 &&
    two(value, 17) <= 60 &&
    (zone === -1 || (two(value, zone) <= 23 && two(value, zone + 3) <= 59));
  if (ok) {
    recent[next] = value;
    next = (next + 1) & 3;
  }
  return ok;
}

/** An RFC 3339 timestamp such as `2024-01-01T00:00:00Z`. */
export const timestamp = () =>
  z
    .string()
    .refine(isRfc3339, { error: 'must be an RFC 3339 timestamp such as 2024-01-01T00:00:00Z' })
    .meta({ format: 'date-time' });

/** An optional value: absent or null both mean "unused" (spec: any JSON value may be null). */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

/** An optional list of `item`. */
export const list = <T extends z.ZodType>(item: T) => z.array(item).nullish();

/** An optional list of payload strings. */
export const stringList = () => list(payloadString());
