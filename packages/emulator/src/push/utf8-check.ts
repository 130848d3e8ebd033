/**
 * UTF-8 validity of a payload read in pieces: each piece is checked up to the start of its last
 * character, which may be cut in two and is checked with the next piece (at most 3 bytes carried).
 */
import { isUtf8 } from 'node:buffer';
import { badField } from '../errors.js';

/** Checks pieces of bytes as they come; 400 naming the field at the first invalid sequence. */
export class Utf8Check {
  private carry: Buffer | undefined;

  constructor(private readonly field: string) {}

  check(next: Buffer): void {
    const piece = this.carry ? Buffer.concat([this.carry, next]) : next;
    if (piece.length === 0) return;
    // The last byte that starts a character (not a continuation byte 10xxxxxx), at most 4 back.
    let cut = piece.length;
    for (let k = piece.length - 1; k >= Math.max(0, piece.length - 4); k--) {
      const b = piece[k]!;
      if ((b & 0xc0) !== 0x80) {
        cut = b < 0x80 ? k + 1 : k;
        break;
      }
    }
    const head = piece.subarray(0, cut);
    if (!isUtf8(head)) throw badField(this.field, 'is not valid UTF-8');
    this.carry = cut < piece.length ? Buffer.from(piece.subarray(cut)) : undefined;
  }

  /** Checks the bytes still carried: the payload has ended. */
  end(): void {
    if (this.carry && !isUtf8(this.carry)) throw badField(this.field, 'is not valid UTF-8');
    this.carry = undefined;
  }
}
