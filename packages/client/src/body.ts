/**
 * Streamed JSON request bodies whose one big string field (`json_data`, `data`) is produced piece by
 * piece from raw bytes, so a 100 MB body never exists as one string.
 */

/** Base64 text of bytes per yielded piece; multiple of 3 so pieces concatenate into valid base64. */
const SLICE = 3 * 1024 * 1024;

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}

/** Base64 of the concatenation of `pieces`, in bounded strings, carrying 0-2 bytes across piece edges. */
export function* base64Pieces(pieces: Iterable<Uint8Array>): Generator<string> {
  let carry: Uint8Array = new Uint8Array(0);
  for (const piece of pieces) {
    let p = piece;
    if (carry.byteLength > 0) {
      const need = 3 - carry.byteLength;
      if (p.byteLength < need) {
        carry = concat(carry, p);
        continue;
      }
      yield b64(concat(carry, p.subarray(0, need)));
      p = p.subarray(need);
    }
    const aligned = p.byteLength - (p.byteLength % 3);
    for (let i = 0; i < aligned; i += SLICE) yield b64(p.subarray(i, Math.min(i + SLICE, aligned)));
    carry = p.subarray(aligned);
  }
  if (carry.byteLength > 0) yield b64(carry);
}

/** Length of the base64 text of `n` bytes. */
export function base64Length(n: number): number {
  return 4 * Math.ceil(n / 3);
}

/**
 * The contents of a JSON string literal (without the quotes) holding the UTF-8 text of `pieces`,
 * with `"` and every non-ASCII character escaped as the spec asks for `json_data`.
 */
export function* jsonStringPieces(pieces: Iterable<Uint8Array>): Generator<string> {
  const decoder = new TextDecoder('utf-8');
  const escape = (text: string): string =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  for (const piece of pieces) {
    for (let i = 0; i < piece.byteLength; i += SLICE) {
      const text = decoder.decode(piece.subarray(i, Math.min(i + SLICE, piece.byteLength)), { stream: true });
      if (text !== '') yield escape(text);
    }
  }
  const rest = decoder.decode();
  if (rest !== '') yield escape(rest);
}

/**
 * A JSON object body: the fixed `fields`, then `key` whose string value is the concatenation of
 * `value` pieces (already escaped or base64). Each call of the returned factory starts over, so a
 * retry can send the body again.
 */
export function envelope(
  fields: Record<string, unknown>,
  key: string,
  value: () => Iterable<string>,
): () => ReadableStream<Uint8Array> {
  const head = JSON.stringify(fields);
  const prefix = `${head.slice(0, -1)}${head === '{}' ? '' : ','}${JSON.stringify(key)}:"`;
  return () => {
    const parts = (function* (): Generator<string> {
      yield prefix;
      yield* value();
      yield '"}';
    })();
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.next();
        if (next.done === true) controller.close();
        else controller.enqueue(Buffer.from(next.value, 'utf8'));
      },
    });
  };
}
