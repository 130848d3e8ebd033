/**
 * Telling the user which encoding a file is in when it is not UTF-8: spreadsheet programs save
 * "Unicode text" as UTF-16 and older exports use Windows-1252, and both otherwise show up only as
 * confusing symptoms (missing columns, garbled names).
 */

/** The UTF-16 byte order of a byte order mark at the start of `head`, if it has one. */
export function utf16Bom(head: Uint8Array): 'LE' | 'BE' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'LE';
  if (head[0] === 0xfe && head[1] === 0xff) return 'BE';
  return undefined;
}

/**
 * Whether the first bytes of a file look like UTF-16 without a byte order mark: text of mostly
 * Latin letters then has a zero byte in every other place (after each letter for LE, before it for BE).
 */
export function looksLikeUtf16(head: Uint8Array): 'LE' | 'BE' | undefined {
  const pairs = Math.min(32, head.length >> 1);
  let le = 0;
  let be = 0;
  for (let k = 0; k < pairs; k++) {
    const a = head[2 * k]!;
    const b = head[2 * k + 1]!;
    if (a !== 0 && b === 0) le++;
    else if (a === 0 && b !== 0) be++;
  }
  if (pairs === 0) return undefined;
  if (le * 2 >= pairs) return 'LE';
  if (be * 2 >= pairs) return 'BE';
  return undefined;
}

/** What to tell a user whose file is UTF-16. */
export function utf16Message(order: 'LE' | 'BE', how: string): string {
  return `the file is not UTF-8: it is UTF-16 (${order === 'LE' ? 'little' : 'big'}-endian; ${how}); re-save it as UTF-8 (e.g. "CSV UTF-8" in a spreadsheet program)`;
}

/**
 * The index of the first byte in `bytes[start, end)` that does not begin a complete, valid UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or -1 if there is none.
 */
export function firstInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (need === 0 || i + need >= end) return i;
    for (let k = 1; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    const next = bytes[i + 1]!;
    if (
      (c === 0xe0 && next < 0xa0) ||
      (c === 0xed && next > 0x9f) ||
      (c === 0xf0 && next < 0x90) ||
      (c === 0xf4 && next > 0x8f)
    )
      return i;
    i += need + 1;
  }
  return -1;
}

/** What to tell a user about the first value of a file that is not valid UTF-8. */
export function invalidUtf8Message(bytes: Uint8Array, start: number, end: number): string {
  const at = firstInvalidUtf8(bytes, start, end);
  if (at === -1) return 'the value is not valid UTF-8: re-save the file as UTF-8';
  // The character position a user sees in an editor: code points before the bad byte, plus one.
  const before = [...Buffer.from(bytes.buffer, bytes.byteOffset + start, at - start).toString('utf8')].length;
  const hex = `0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')}`;
  return `the file is not UTF-8: the byte ${hex} at character ${before + 1} of the value is not valid UTF-8 (the file may be Windows-1252 or Latin-1); re-save it as UTF-8. Later values of the file that are not UTF-8 are not listed`;
}
