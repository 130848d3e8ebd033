/**
 * One pushed payload at a time, per emulator. Decoding, parsing, validating and ingesting a payload
 * hold it in memory several times over; two at once would hold twice that, six gzip bombs six times
 * the decoding limit. Work that is CPU-bound on one thread anyway loses almost nothing by waiting
 * its turn, and the emulator's peak memory becomes that of its largest payload, not of the sum.
 */
import type { EmulatorContext } from '../context.js';

/** A first-come, first-served gate that lets one task run at a time. */
class PayloadGate {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `task` once every task admitted before it has settled; answers what `task` answers. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    try {
      await before;
      return await task();
    } finally {
      release();
    }
  }
}

const gates = new WeakMap<EmulatorContext, PayloadGate>();

/**
 * Runs `task` (decoding and processing one payload) once no other payload of the emulator of `ctx`
 * is being decoded or processed.
 */
export function oneAtATime<T>(ctx: EmulatorContext, task: () => Promise<T>): Promise<T> {
  let gate = gates.get(ctx);
  if (gate === undefined) gates.set(ctx, (gate = new PayloadGate()));
  return gate.run(task);
}
