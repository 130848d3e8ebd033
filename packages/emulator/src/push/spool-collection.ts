/**
 * A spooled array read back: an iterable over its entities that reads the spool file in batches of
 * about 256 KiB cut between entities, and parses each batch with one `JSON.parse`. It holds one batch
 * at a time, and can be read more than once (validation and ingest may each read it).
 */
import { readSync } from 'node:fs';
import { badField } from '../errors.js';
import type { SpoolRegion } from './json-spool.js';

const OPEN = 0x5b;
/** The least size of the reused batch buffer: a batch is cut at about 256 KiB. */
const SCRATCH_BYTES = 320 * 1024;
const CLOSE = 0x5d;

/** The entities of one spooled array, parsed batch by batch as they are iterated. */
export class SpoolCollection<T> implements Iterable<T> {
  /** Whether an iteration was started: a collection that is never read is drained by the caller. */
  opened = false;
  /** The bytes of the batch being parsed, reused from batch to batch (grown for a larger one). */
  private scratch: Buffer | undefined;

  constructor(
    private readonly fd: number,
    private readonly region: SpoolRegion,
    private readonly field: string,
  ) {}

  /** How deep arrays and objects nest inside the spooled array (its elements are at depth 1). */
  get depth(): number {
    return this.region.depth;
  }

  *[Symbol.iterator](): Iterator<T> {
    this.opened = true;
    const cuts = this.region.cuts;
    for (let k = 0; k + 1 < cuts.length; k++) {
      const batch = this.batch(cuts[k]!, cuts[k + 1]!);
      for (let i = 0; i < batch.length; i++) {
        const entity = batch[i] as T;
        batch[i] = undefined; // let the entity go once the reader is done with it
        yield entity;
      }
    }
  }

  /** Parses the bytes strictly between the cut characters at `from` and `to`, wrapped in [ ]. */
  private batch(from: number, to: number): unknown[] {
    const length = to - from - 1;
    if (this.scratch === undefined || this.scratch.length < length + 2)
      this.scratch = Buffer.allocUnsafe(Math.max(length + 2, SCRATCH_BYTES));
    const buf = this.scratch;
    buf[0] = OPEN;
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, 1 + got, length - got, from + 1 + got);
      if (n === 0) throw new Error('the ingest spool file ended early');
      got += n;
    }
    buf[length + 1] = CLOSE;
    try {
      return JSON.parse(buf.toString('utf8', 0, length + 2)) as unknown[];
    } catch (err) {
      const start = this.region.payloadStart + (from - this.region.cuts[0]!);
      throw badField(
        this.field,
        `is not valid JSON: ${(err as Error).message} (in the array at byte ${this.region.payloadStart}, bytes ${start + 1}-${start + length} of the payload)`,
      );
    }
  }
}
