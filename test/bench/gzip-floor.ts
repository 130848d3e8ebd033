/** The reference figure: how long node:zlib alone takes to gzip given bytes at a given level. */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** Seconds node:zlib takes to gzip `chunks` at `level`, streamed through one gzip stream. */
export async function gzipSeconds(chunks: Buffer[], level: number): Promise<number> {
  const start = process.hrtime.bigint();
  await pipeline(
    Readable.from(chunks),
    createGzip({ level, chunkSize: 128 * 1024 }),
    new Writable({ write: (_chunk, _enc, done) => done() }),
  );
  return Number(process.hrtime.bigint() - start) / 1e9;
}
