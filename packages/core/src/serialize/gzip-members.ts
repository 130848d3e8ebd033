/**
 * gzip in independent members on worker threads. RFC 1952 lets a gzip file hold several members one
 * after the other, and standard readers (`gunzip`, Python's `gzip`, node:zlib's gunzip, the
 * emulator) read them all as one stream. So the JSON bytes can be cut into blocks that are
 * compressed at the same time on several cores, and the members written out in order.
 *
 * A member restarts gzip's dictionary; with blocks of a few MiB the output grows by well under 1%.
 * Memory stays bounded: at most `2 x workers` blocks are waiting or being compressed, and the
 * producer is held back (its write callback waits) past that.
 *
 * The worker is a dozen lines of plain JavaScript evaluated from a string, not a module file:
 * it then works the same from `dist/` and from the TypeScript sources the tests run.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
parentPort.on('message', ({ id, data, level }) => {
  try {
    const out = gzipSync(data, { level });
    const whole = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength;
    const bytes = whole ? out : Uint8Array.prototype.slice.call(out);
    parentPort.postMessage({ id, bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/** Default bytes per member: large enough that restarting the dictionary costs nothing visible. */
export const DEFAULT_MEMBER_BYTES = 4 * 1024 * 1024;

interface Job {
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

/** A few workers that gzip whole buffers; jobs queue when all are busy. Idle workers do not keep the process alive. */
class GzipPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: { data: Uint8Array; level: number; job: Job }[] = [];
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  private failure: Error | undefined;

  /** Starts workers until there are `size`. */
  grow(size: number): this {
    while (this.all.length < size) {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.on('message', (message: { id: number; bytes?: Uint8Array; error?: string }) =>
        this.done(worker, message),
      );
      worker.on('error', (error) => this.fail(error));
      worker.unref();
      this.all.push(worker);
      this.idle.push(worker);
    }
    this.dispatch();
    return this;
  }

  /** gzips `data` (whose buffer is handed over to the worker) as one member. */
  compress(data: Uint8Array, level: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ data, level, job: { resolve, reject } });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const { data, level, job } = this.queue.shift()!;
      const id = this.nextId++;
      this.jobs.set(id, job);
      worker.ref();
      worker.postMessage({ id, data, level }, [data.buffer as ArrayBuffer]);
    }
  }

  private done(worker: Worker, message: { id: number; bytes?: Uint8Array; error?: string }): void {
    const job = this.jobs.get(message.id);
    this.jobs.delete(message.id);
    worker.unref();
    this.idle.push(worker);
    if (message.bytes) {
      const { buffer, byteOffset, byteLength } = message.bytes;
      job?.resolve(Buffer.from(buffer, byteOffset, byteLength));
    } else job?.reject(new Error(`gzip worker: ${message.error ?? 'failed'}`));
    this.dispatch();
  }

  private fail(error: Error): void {
    this.failure = error;
    for (const job of this.jobs.values()) job.reject(error);
    for (const { job } of this.queue) job.reject(error);
    this.jobs.clear();
    this.queue.length = 0;
  }
}

/** The process's pool, shared by every stream; grown when a stream asks for more workers. */
const shared = new GzipPool();

export interface MemberGzipOptions {
  /** gzip level 0–9. */
  level: number;
  /** Worker threads compressing at once (at least 1). */
  workers: number;
  /** Bytes of input per member; default `DEFAULT_MEMBER_BYTES`. */
  memberBytes?: number;
}

/**
 * A Transform from bytes to a multi-member gzip stream of them, compressed on `workers` threads.
 * The output is standard gzip: concatenated members, in input order.
 */
export function createMemberGzip(options: MemberGzipOptions): Transform {
  return new MemberGzip(shared.grow(Math.max(1, Math.floor(options.workers))), options);
}

class MemberGzip extends Transform {
  private block: Buffer;
  private filled = 0;
  private readonly memberBytes: number;
  private readonly level: number;
  /** Members in input order, compressed or still being compressed. */
  private readonly pending: Promise<Buffer>[] = [];
  private readonly maxPending: number;
  private members = 0;

  constructor(
    private readonly workers: GzipPool,
    options: MemberGzipOptions,
  ) {
    super();
    this.level = options.level;
    this.memberBytes = options.memberBytes ?? DEFAULT_MEMBER_BYTES;
    this.maxPending = 2 * Math.max(1, Math.floor(options.workers));
    this.block = Buffer.allocUnsafeSlow(this.memberBytes);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(chunk.length - offset, this.memberBytes - this.filled);
      chunk.copy(this.block, this.filled, offset, offset + n);
      this.filled += n;
      offset += n;
      if (this.filled === this.memberBytes) this.seal();
    }
    this.drain(this.maxPending).then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.filled > 0 || this.members === 0) this.seal();
    this.drain(0).then(() => callback(), callback);
  }

  /** Hands the current block to the workers as one member and starts a new block. */
  private seal(): void {
    const data = this.filled === this.memberBytes ? this.block : this.block.subarray(0, this.filled);
    const member = this.workers.compress(data, this.level);
    member.catch(() => undefined); // awaited in order by drain(); unread if the stream is destroyed
    this.pending.push(member);
    this.members++;
    this.block = Buffer.allocUnsafeSlow(this.memberBytes);
    this.filled = 0;
  }

  /** Pushes finished members in order until at most `keep` are pending. */
  private async drain(keep: number): Promise<void> {
    while (this.pending.length > keep) {
      const member = await this.pending.shift()!;
      this.push(member);
    }
  }
}
