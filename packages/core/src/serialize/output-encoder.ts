import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { Base64Encoder } from './base64-encoder.js';
import { JsonStringEncoder } from './json-string-encoder.js';

/** How the payload bytes leave the pipeline. */
export type PayloadEncoding = 'base64' | 'binary' | 'json-string';

/** The last stage of the payload pipeline: encodes and counts what goes in and out. */
export interface OutputEncoder extends Transform {
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/** Passes bytes through unchanged, counting them. */
class ByteCounter extends Transform {
  bytesIn = 0;
  get bytesOut(): number {
    return this.bytesIn;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytesIn += chunk.length;
    callback(null, chunk);
  }
}

export function createOutputEncoder(encoding: PayloadEncoding): OutputEncoder {
  switch (encoding) {
    case 'base64':
      return new Base64Encoder();
    case 'json-string':
      return new JsonStringEncoder();
    case 'binary':
      return new ByteCounter();
  }
}
