/**
 * Queued statement runs of a `WorkerConnection`, packed for one message to its worker: the
 * parameter values go into typed arrays (a kind per value, numbers as float64, which is how
 * better-sqlite3 binds a JavaScript number anyway) that are transferred, not copied, and only the
 * strings and other values (Buffers, named parameters) are cloned one by one. A bulk push sends
 * millions of edge rows of small numbers and nulls: cloned value by value, they cost the main thread
 * about 1 s at bench-app-1000000. The worker (`worker-connection-source.ts`) unpacks them in order.
 */

/** The kind of a packed value. */
export const PACKED_NULL = 0;
export const PACKED_NUMBER = 1;
export const PACKED_STRING = 2;
export const PACKED_OTHER = 3;

/** The message a batch of runs is sent as, and the buffers it transfers. */
export interface PackedMessage {
  message: {
    op: 'runs';
    /** Per run: statement id, its SQL on first use (else undefined), number of values. */
    runs: unknown[];
    kinds: Uint8Array;
    numbers: Float64Array;
    strings: string[];
    others: unknown[];
  };
  transfer: ArrayBuffer[];
}

export class PackedRuns {
  /** Values packed. */
  values = 0;
  /** Estimated bytes of the message (9 per value, plus strings and binary values). */
  weight = 0;
  /** Bytes of binary values (a stored payload's pieces). */
  bytes = 0;
  private runs: unknown[] = [];
  private kinds: Uint8Array;
  private numbers: Float64Array;
  private strings: string[] = [];
  private others: unknown[] = [];

  constructor(private readonly capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.numbers = new Float64Array(capacity);
  }

  /** Whether nothing is packed. */
  get empty(): boolean {
    return this.runs.length === 0;
  }

  /** Packs a run of statement `id` (`sql` on its first use) with `params` as `run` took them. */
  add(id: number, sql: string | undefined, params: readonly unknown[]): void {
    // `run(array)` binds the array's values, as `run(...array)` does.
    const values = params.length === 1 && Array.isArray(params[0]) ? (params[0] as unknown[]) : params;
    this.reserve(values.length);
    let n = this.values;
    for (let i = 0; i < values.length; i++, n++) {
      const v = values[i];
      if (v === null) this.kinds[n] = PACKED_NULL;
      else if (typeof v === 'number') {
        this.kinds[n] = PACKED_NUMBER;
        this.numbers[n] = v;
      } else if (typeof v === 'string') {
        this.kinds[n] = PACKED_STRING;
        this.strings.push(v);
        this.weight += v.length;
      } else {
        this.kinds[n] = PACKED_OTHER;
        this.others.push(this.other(v));
      }
    }
    this.weight += 9 * values.length;
    this.values = n;
    this.runs.push(id, sql, values.length);
  }

  /** The message of what is packed; this packing must not be used after. */
  take(): PackedMessage {
    return {
      message: {
        op: 'runs',
        runs: this.runs,
        kinds: this.kinds,
        numbers: this.numbers,
        strings: this.strings,
        others: this.others,
      },
      transfer: [this.kinds.buffer as ArrayBuffer, this.numbers.buffer as ArrayBuffer],
    };
  }

  private other(v: unknown): unknown {
    if (!(v instanceof Uint8Array)) return v;
    this.bytes += v.byteLength;
    this.weight += v.byteLength;
    // A message copies a view's whole ArrayBuffer (a Buffer pool, a whole payload): copy the view.
    return v.byteLength === v.buffer.byteLength ? v : Uint8Array.prototype.slice.call(v);
  }

  private reserve(more: number): void {
    const need = this.values + more;
    if (need <= this.kinds.length) return;
    const size = Math.max(need, 2 * this.kinds.length, this.capacity);
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds.subarray(0, this.values));
    const numbers = new Float64Array(size);
    numbers.set(this.numbers.subarray(0, this.values));
    this.kinds = kinds;
    this.numbers = numbers;
  }
}
