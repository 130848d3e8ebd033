/**
 * Gzip "bombs" for the tests that one push cannot exhaust the emulator: small gzip data that
 * inflates to a great deal. The repeated piece is compressed once and its gzip member repeated (a
 * gzip stream may hold many members), so a bomb of 500 MB takes milliseconds to make and the test
 * process never holds the inflated bytes.
 */
import { gzipSync } from 'node:zlib';

/** gzip (level 9) of `head`, then `piece` repeated `times` times, then `tail`. */
export function gzipRepeated(head: string, piece: Buffer, times: number, tail = ''): Buffer {
  const member = gzipSync(piece, { level: 9 });
  return Buffer.concat([gzipSync(head), ...Array<Buffer>(times).fill(member), gzipSync(tail)]);
}

/** `rows` CSV rows of `1,a` under a `User,Email` header, gzip: 4 bytes a row inflated. */
export function csvRowsBomb(rows: number): Buffer {
  const block = 1_000_000;
  if (rows % block !== 0 && rows > block) throw new Error(`rows must be a multiple of ${block}`);
  const perPiece = Math.min(rows, block);
  return gzipRepeated('User,Email\n', Buffer.from('1,a\n'.repeat(perPiece)), rows / perPiece);
}

/** A JSON object of `bytes` bytes, nearly all white space, gzip. */
export function jsonBomb(bytes: number): Buffer {
  const block = 4_000_000;
  if (bytes % block !== 0) throw new Error(`bytes must be a multiple of ${block}`);
  return gzipRepeated('{', Buffer.alloc(block, 0x20), bytes / block - 1, `${' '.repeat(block - 2)}}`);
}
