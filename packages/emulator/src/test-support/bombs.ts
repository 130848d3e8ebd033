/**
 * Gzip "bombs" for the tests of issue 9: small gzip data that inflates to a great deal, built as a
 * stream so the test process never holds the inflated bytes itself.
 */
import { once } from 'node:events';
import { createGzip } from 'node:zlib';

/** gzip (level 9) of `head`, then `piece` repeated `times` times, then `tail`. */
export async function gzipRepeated(head: string, piece: Buffer, times: number, tail = ''): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(gzip, 'end');
  gzip.write(head);
  for (let i = 0; i < times; i++) if (!gzip.write(piece)) await once(gzip, 'drain');
  gzip.end(tail);
  await ended;
  return Buffer.concat(out);
}

/** `rows` CSV rows of `1,a` under a `User,Email` header, gzip: 4 bytes a row inflated. */
export function csvRowsBomb(rows: number): Promise<Buffer> {
  const block = 1_000_000;
  if (rows % block !== 0 && rows > block) throw new Error(`rows must be a multiple of ${block}`);
  const perPiece = Math.min(rows, block);
  return gzipRepeated('User,Email\n', Buffer.from('1,a\n'.repeat(perPiece)), rows / perPiece);
}

/** A JSON object of `bytes` bytes, nearly all white space, gzip. */
export function jsonBomb(bytes: number): Promise<Buffer> {
  const block = 4_000_000;
  if (bytes % block !== 0) throw new Error(`bytes must be a multiple of ${block}`);
  return gzipRepeated('{', Buffer.alloc(block, 0x20), bytes / block - 1, `${' '.repeat(block - 2)}}`);
}
