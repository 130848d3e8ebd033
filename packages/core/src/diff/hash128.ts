/**
 * The pieces the hashes of payloads are built of: MurmurHash3's x86 128-bit algorithm (seed 0)
 * over UTF-16 code units, two per 32-bit word (little-endian, so it is MurmurHash3_x86_128 of the
 * UTF-16LE bytes), which hashes an entity with nested collections (`nested-hash.ts`); its 32-bit
 * finalizer, which the value hash (`value-hash.ts`) and the runner's identity hash mix with; and
 * one table of hex digits. It runs inline and allocates nothing. Accidental collisions are
 * negligible at 128 bits; collisions can be constructed on purpose, and these hashes detect
 * changes, they do not authenticate data.
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

/**
 * MurmurHash3's 32-bit finalizer (`fmix32`): every bit of `h` affects every bit of the result.
 *
 * @example
 * const mixed = fmix(a ^ b); // a signed 32-bit integer
 */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Hashes the first `n` UTF-16 code units of `units` into {@link HASH_WORDS} and returns it:
 * MurmurHash3_x86_128 of the text they spell (as UTF-16LE).
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

/**
 * The two hex digits of each byte, as two character codes in one number (the first digit's in the
 * high byte): what a writer of hex copies straight into a buffer, a byte at a time.
 *
 * @example
 * const pair = HEX_PAIRS[0xa7]!; // 'a7'
 * buf[at] = pair >>> 8; // 0x61, 'a'
 * buf[at + 1] = pair & 0xff; // 0x37, '7'
 */
export const HEX_PAIRS: Readonly<Uint16Array> = Uint16Array.from({ length: 256 }, (_, b) => {
  const digits = b.toString(16).padStart(2, '0');
  return (digits.charCodeAt(0) << 8) | digits.charCodeAt(1);
});

/** 8 hex digits of a 32-bit word. */
export function hex32(w: number): string {
  let hex = '';
  for (let shift = 24; shift >= 0; shift -= 8) {
    const pair = HEX_PAIRS[(w >>> shift) & 0xff]!;
    hex += String.fromCharCode(pair >>> 8, pair & 0xff);
  }
  return hex;
}
