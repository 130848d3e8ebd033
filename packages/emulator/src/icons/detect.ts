/** Recognises provider icons by content: a PNG signature, or an SVG document's `<svg` root. */

export type IconMime = 'image/png' | 'image/svg+xml';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Skips one prolog construct (XML declaration, comment, doctype, processing instruction) at `i`. */
function skipProlog(text: string, i: number): number | undefined {
  if (text.startsWith('<?', i)) {
    const end = text.indexOf('?>', i + 2);
    return end === -1 ? undefined : end + 2;
  }
  if (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    return end === -1 ? undefined : end + 3;
  }
  if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!doctype', i)) {
    // An internal subset in brackets may itself contain '>'.
    let depth = 0;
    for (let j = i + 9; j < text.length; j++) {
      const c = text[j];
      if (c === '[') depth++;
      else if (c === ']') depth--;
      else if (c === '>' && depth <= 0) return j + 1;
    }
    return undefined;
  }
  return undefined;
}

function isSvg(buf: Buffer): boolean {
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('<svg', i)) {
      const after = text[i + 4];
      return after !== undefined && /[\s>/]/.test(after);
    }
    const next = skipProlog(text, i);
    if (next === undefined) return false;
    i = next;
  }
}

/** The MIME type of an icon's bytes, or undefined when they are neither PNG nor SVG. */
export function detectIconMime(buf: Buffer): IconMime | undefined {
  if (buf.length >= PNG_SIGNATURE.length && buf.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE))
    return 'image/png';
  if (isSvg(buf)) return 'image/svg+xml';
  return undefined;
}
