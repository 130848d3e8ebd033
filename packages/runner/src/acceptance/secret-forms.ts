/**
 * The forms a secret's value takes when it leaks, and searching for them. A token rarely leaks as
 * it is only: a Basic authorization header carries it base64-encoded inside `user:token`, a query
 * string URL-encoded, a JSON text with its quotes and backslashes escaped. Each value is searched
 * as it is, JSON-escaped, URL-encoded (`encodeURIComponent`), and base64 and base64url encoded:
 * whole, and, since inside a longer value its encoding depends on where it starts, as the part of
 * its encoding that is the same at each of the three byte offsets (when that part is 8 characters
 * or more, so that it cannot match by chance).
 */

/** Secrets shorter than this are not searched: they would be found everywhere by chance. */
export const MIN_SECRET_LENGTH = 4;

/** Shortest encoded part searched for a secret inside a longer base64 value. */
const MIN_CORE_LENGTH = 8;

/** One form of one secret. */
export interface SecretForm {
  /** The secret's declared name. */
  secret: string;
  /** Which form: `as is`, `base64`, `base64url`, `URL-encoded`, `JSON-escaped`. */
  form: string;
  text: string;
  bytes: Buffer;
}

function base64url(b64: string): string {
  return b64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The part of the base64 encoding of `value` that is the same wherever it starts in a longer
 * value that is `offset` bytes (mod 3) further on: the groups made of its own bytes only.
 */
function base64Core(value: Buffer, offset: number): string {
  const b64 = Buffer.concat([Buffer.alloc(offset), value]).toString('base64');
  const start = offset === 0 ? 0 : 4;
  const whole = Math.floor((offset + value.length) / 3) * 4;
  return b64.slice(start, whole);
}

/** Every form of `value` searched for secret `name`, each once. */
export function secretForms(name: string, value: string): SecretForm[] {
  const raw = Buffer.from(value, 'utf8');
  const candidates: [string, string][] = [
    ['as is', value],
    ['JSON-escaped', JSON.stringify(value).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(value)],
    ['base64', raw.toString('base64')],
    ['base64url', base64url(raw.toString('base64'))],
  ];
  for (let offset = 0; offset < 3; offset++) {
    const core = base64Core(raw, offset);
    if (core.length < MIN_CORE_LENGTH) continue;
    candidates.push(['base64', core], ['base64url', base64url(core)]);
  }
  const seen = new Set<string>();
  const forms: SecretForm[] = [];
  for (const [form, text] of candidates) {
    if (text.length === 0 || seen.has(text)) continue;
    seen.add(text);
    forms.push({ secret: name, form, text, bytes: Buffer.from(text, 'utf8') });
  }
  return forms;
}

/** The forms of every secret long enough to search, and the names of those that are not. */
export function searchableSecrets(secrets: Readonly<Record<string, string>>): {
  forms: SecretForm[];
  tooShort: string[];
} {
  const forms: SecretForm[] = [];
  const tooShort: string[] = [];
  for (const [name, value] of Object.entries(secrets)) {
    if (value.length < MIN_SECRET_LENGTH) tooShort.push(name);
    else forms.push(...secretForms(name, value));
  }
  return { forms, tooShort };
}

/** The first form found in `text`, if any. */
export function findForm(text: string, forms: readonly SecretForm[]): SecretForm | undefined {
  return forms.find((f) => text.includes(f.text));
}

/** `text` with every form of every secret replaced by `[secret]`, longest first. */
export function hideSecrets(text: string, forms: readonly SecretForm[]): string {
  let out = text;
  for (const f of [...forms].sort((a, b) => b.text.length - a.text.length))
    out = out.replaceAll(f.text, '[secret]');
  return out;
}

/** A hit of {@link ByteSearch}: the form and the offset of its first byte. */
export interface ByteHit {
  form: SecretForm;
  offset: number;
}

/**
 * Searches a stream of byte chunks for the forms, across chunk boundaries; remembers the first
 * hit of each form.
 */
export class ByteSearch {
  private carry: Buffer = Buffer.alloc(0);
  private consumed = 0;
  private readonly longest: number;
  readonly hits: ByteHit[] = [];

  constructor(private readonly forms: readonly SecretForm[]) {
    this.longest = Math.max(0, ...forms.map((f) => f.bytes.length));
  }

  /** Searches the next chunk. */
  push(chunk: Uint8Array): void {
    if (this.forms.length === 0) return;
    const buf = Buffer.concat([this.carry, chunk]);
    const base = this.consumed - this.carry.length;
    for (const form of this.forms) {
      if (this.hits.some((h) => h.form === form)) continue;
      const at = buf.indexOf(form.bytes);
      if (at >= 0) this.hits.push({ form, offset: base + at });
    }
    const keep = Math.min(buf.length, this.longest - 1);
    this.carry = Buffer.from(buf.subarray(buf.length - keep));
    this.consumed += chunk.byteLength;
  }
}
