/**
 * A fast 128-bit non-cryptographic hash of a string, in JavaScript: MurmurHash3's x86 128-bit
 * algorithm (seed 0) over the string's UTF-16 code units, two per 32-bit word (little-endian, so
 * it is MurmurHash3_x86_128 of the UTF-16LE bytes). Entity hashes only tell a change: a native
 * SHA-256 call per entity cost more than the entity's encoding (millions of calls per payload),
 * while this runs inline, reads the string without encoding it to bytes and allocates nothing.
 * Accidental collisions are negligible at 128 bits; collisions can be constructed on purpose, and
 * this hash detects changes, it does not authenticate data.
 */

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

/** The last hash's four 32-bit words (h1..h4); overwritten by the next call, copy what you keep. */
export const HASH_WORDS = new Uint32Array(4);

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/** MurmurHash3's 32-bit finalizer: every bit of `h` affects every bit of the result. */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Scratch code units for {@link hash128}; grown when a text is longer. */
let scratch = new Uint16Array(1024);

/** Hashes `text` into {@link HASH_WORDS} and returns it. */
export function hash128(text: string): Uint32Array {
  const n = text.length;
  if (n > scratch.length) scratch = new Uint16Array(Math.max(n, scratch.length * 2));
  for (let i = 0; i < n; i++) scratch[i] = text.charCodeAt(i);
  const words = hashUnits(scratch, n);
  if (scratch.length > 1 << 20) scratch = new Uint16Array(1024);
  return words;
}

/**
 * Hashes the first `n` UTF-16 code units of `units` into {@link HASH_WORDS} and returns it: the
 * same as `hash128` of the text they spell.
 */
export function hashUnits(units: Uint16Array, n: number): Uint32Array {
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  const blocks = n - (n % 8);
  let i = 0;
  for (; i < blocks; i += 8) {
    let k1 = units[i]! | (units[i + 1]! << 16);
    let k2 = units[i + 2]! | (units[i + 3]! << 16);
    let k3 = units[i + 4]! | (units[i + 5]! << 16);
    let k4 = units[i + 6]! | (units[i + 7]! << 16);
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  if (i < n) {
    // The tail: up to 7 code units (14 bytes), in the words they fall in; 0 past the end.
    const at = (j: number): number => (j < n ? units[j]! : 0);
    if (i + 6 < n) h4 ^= Math.imul(rotl(Math.imul(at(i + 6) | (at(i + 7) << 16), C4), 18), C1);
    if (i + 4 < n) h3 ^= Math.imul(rotl(Math.imul(at(i + 4) | (at(i + 5) << 16), C3), 17), C4);
    if (i + 2 < n) h2 ^= Math.imul(rotl(Math.imul(at(i + 2) | (at(i + 3) << 16), C2), 16), C3);
    h1 ^= Math.imul(rotl(Math.imul(at(i) | (at(i + 1) << 16), C1), 15), C2);
  }
  const bytes = n * 2;
  h1 ^= bytes;
  h2 ^= bytes;
  h3 ^= bytes;
  h4 ^= bytes;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  HASH_WORDS[0] = h1;
  HASH_WORDS[1] = h2;
  HASH_WORDS[2] = h3;
  HASH_WORDS[3] = h4;
  return HASH_WORDS;
}

const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** 8 hex digits of a 32-bit word, from a table (`toString(16)` and padding cost more per entity). */
export function hex32(w: number): string {
  return (
    HEX_BYTE[w >>> 24]! + HEX_BYTE[(w >>> 16) & 0xff]! + HEX_BYTE[(w >>> 8) & 0xff]! + HEX_BYTE[w & 0xff]!
  );
}

/** The first 64 bits of the last hash (`words`) as 16 hex digits. */
export function hex64(words: Uint32Array): string {
  return hex32(words[0] ?? 0) + hex32(words[1] ?? 0);
}
