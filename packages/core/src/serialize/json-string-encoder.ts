import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

/** `"`, `\`, control characters and every UTF-16 unit outside ASCII (astral characters become two escapes). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/g;

function escapeUnit(unit: string): string {
  if (unit === '"') return '\\"';
  if (unit === '\\') return '\\\\';
  return '\\u' + unit.charCodeAt(0).toString(16).padStart(4, '0');
}

/**
 * A Transform that turns UTF-8 JSON text into the contents of a JSON string literal (without the
 * surrounding quotes), all ASCII: what an uncompressed push puts in `json_data`, where the spec
 * asks for `"` and non-ASCII characters escaped. Multi-byte characters split across chunks are
 * carried over intact.
 */
export class JsonStringEncoder extends Transform {
  /** Bytes received so far. */
  bytesIn = 0;
  /** Escaped bytes produced so far. */
  bytesOut = 0;
  private readonly decoder = new StringDecoder('utf8');

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytesIn += chunk.length;
    this.emitEscaped(this.decoder.write(chunk));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.emitEscaped(this.decoder.end());
    callback();
  }

  private emitEscaped(text: string): void {
    if (text.length === 0) return;
    const escaped = text.replace(NEEDS_ESCAPE, escapeUnit);
    this.bytesOut += escaped.length;
    this.push(Buffer.from(escaped, 'latin1'));
  }
}
