import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

const EMPTY = Buffer.alloc(0);

/**
 * A Transform that base64-encodes a byte stream. Output is identical to base64 of all input bytes
 * at once, whatever the chunk boundaries: the 0–2 bytes that do not fill a 3-byte group are
 * carried into the next chunk, and padding is written only at the end.
 */
export class Base64Encoder extends Transform {
  /** Bytes received so far. */
  bytesIn = 0;
  /** Base64 bytes produced so far. */
  bytesOut = 0;
  private carry: Buffer = EMPTY;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytesIn += chunk.length;
    let start = 0;
    let head = '';
    if (this.carry.length > 0) {
      const need = 3 - this.carry.length;
      if (chunk.length < need) {
        this.carry = Buffer.concat([this.carry, chunk]);
        callback();
        return;
      }
      head = Buffer.concat([this.carry, chunk.subarray(0, need)]).toString('base64');
      start = need;
    }
    const end = start + Math.floor((chunk.length - start) / 3) * 3;
    // copy the tail so the carry does not pin the whole chunk
    this.carry = end < chunk.length ? Buffer.from(chunk.subarray(end)) : EMPTY;
    this.emit64(head + chunk.toString('base64', start, end));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.carry.length > 0) this.emit64(this.carry.toString('base64'));
    this.carry = EMPTY;
    callback();
  }

  private emit64(text: string): void {
    if (text.length === 0) return;
    this.bytesOut += text.length;
    this.push(Buffer.from(text, 'latin1'));
  }
}
