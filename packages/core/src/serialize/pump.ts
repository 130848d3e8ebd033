import type { Writable } from 'node:stream';
import { setImmediate as macrotaskTurn } from 'node:timers/promises';

export interface PumpOptions {
  /** Chunks written but not yet processed by `destination` before the pump waits. */
  maxInFlight: number;
  /** Called with each chunk before it is written (for counting). */
  onChunk?: (chunk: Buffer) => void;
}

/**
 * Writes chunks into a Writable, keeping at most `maxInFlight` unprocessed, then ends it.
 *
 * Why not `pipe()`: a Writable emits 'drain' only once its buffer is empty, so a producer paused
 * by `write() === false` restarts while the consumer (gzip on the thread pool) has nothing left to
 * do, and the two take turns instead of overlapping. Per-chunk write callbacks let the producer
 * stay a few chunks ahead. After each chunk the pump gives the event loop a turn, so zlib's
 * completions are handled (and its next job started) while serialization continues.
 *
 * Stops early, closing `chunks`, when `destination` is destroyed; destroys `destination` with the
 * error when `chunks` throws.
 */
export async function pump(
  chunks: AsyncIterable<Buffer>,
  destination: Writable,
  options: PumpOptions,
): Promise<void> {
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const signal = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const written = (): void => {
    inFlight--;
    signal();
  };
  destination.on('close', signal);
  try {
    for await (const chunk of chunks) {
      if (destination.destroyed) return;
      options.onChunk?.(chunk);
      inFlight++;
      destination.write(chunk, written);
      while (inFlight >= options.maxInFlight && !destination.destroyed) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (destination.destroyed) return;
      await macrotaskTurn();
    }
    destination.end();
  } catch (error) {
    destination.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    destination.off('close', signal);
  }
}
