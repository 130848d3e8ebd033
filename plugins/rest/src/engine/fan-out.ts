/**
 * Bounded, ordered fan-out: the items of each source item are read by a producer of their own, at
 * most `concurrency` producers at once, and come out in source order. Each producer runs at most
 * one item ahead of its reader (a channel of one), so memory holds at most `concurrency` items
 * (pages) beyond the one being read, whatever the number of source items.
 */

/** A one-item channel between a producer and the reader. */
class Channel<T> {
  private item: { value: T } | undefined;
  private ended = false;
  private error: { error: unknown } | undefined;
  private reader: (() => void) | undefined;
  private writer: (() => void) | undefined;

  constructor(private readonly signal: AbortSignal) {}

  private wakeReader(): void {
    const r = this.reader;
    this.reader = undefined;
    r?.();
  }

  /** Hands over one item; resolves once the reader took it (or rejects when the fan-out stopped). */
  async put(value: T): Promise<void> {
    while (this.item !== undefined) {
      this.signal.throwIfAborted();
      await new Promise<void>((resolve) => {
        const onAbort = (): void => resolve();
        this.writer = () => {
          this.signal.removeEventListener('abort', onAbort);
          resolve();
        };
        this.signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.signal.throwIfAborted();
    this.item = { value };
    this.wakeReader();
  }

  close(): void {
    this.ended = true;
    this.wakeReader();
  }

  fail(error: unknown): void {
    this.error = { error };
    this.wakeReader();
  }

  /** The next item, or done when the producer ended; what the producer threw is thrown here. */
  async take(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      if (this.item !== undefined) {
        const { value } = this.item;
        this.item = undefined;
        const w = this.writer;
        this.writer = undefined;
        w?.();
        return { done: false, value };
      }
      if (this.error !== undefined) throw this.error.error;
      if (this.ended) return { done: true, value: undefined };
      await new Promise<void>((resolve) => (this.reader = resolve));
    }
  }
}

/**
 * The items `produce` gives for each item of `source`, in source order, with at most `concurrency`
 * producers running. A producer starts when the window has room: the source is read only as far
 * as that. Stopping early (or `signal`) aborts the producers' signal; the first error of a producer
 * is thrown when its turn comes.
 */
export async function* orderedFanOut<S, T>(
  source: AsyncIterable<S>,
  concurrency: number,
  produce: (item: S, signal: AbortSignal) => AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const controller = new AbortController();
  const stop = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const it = source[Symbol.asyncIterator]();
  let sourceDone = false;
  const window: Channel<T>[] = [];

  const start = (item: S): void => {
    const channel = new Channel<T>(controller.signal);
    window.push(channel);
    void (async () => {
      try {
        for await (const value of produce(item, controller.signal)) await channel.put(value);
        channel.close();
      } catch (error) {
        channel.fail(error);
      }
    })();
  };
  const fill = async (): Promise<void> => {
    while (!sourceDone && window.length < concurrency) {
      const next = await it.next();
      if (next.done === true) sourceDone = true;
      else start(next.value);
    }
  };

  try {
    await fill();
    while (window.length > 0) {
      const head = window[0]!;
      for (let r = await head.take(); r.done !== true; r = await head.take()) yield r.value;
      window.shift();
      await fill();
    }
  } finally {
    signal.removeEventListener('abort', stop);
    controller.abort(signal.aborted ? signal.reason : new Error('the fan-out stopped'));
    if (!sourceDone) await it.return?.();
  }
}
