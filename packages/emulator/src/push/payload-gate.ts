/**
 * One pushed payload at a time, per emulator. Decoding, parsing, validating and ingesting a payload
 * hold it in memory several times over; two at once would hold twice that, six gzip bombs six times
 * the decoding limit. Work that is CPU-bound on one thread anyway loses almost nothing by waiting
 * its turn, and the emulator's peak memory becomes that of its largest payload, not of the sum.
 */
import PQueue from 'p-queue';
import type { EmulatorContext } from '../context.js';

/** A first-come, first-served gate per emulator that lets one task run at a time. */
const gates = new WeakMap<EmulatorContext, PQueue>();

/**
 * Runs `task` (decoding and processing one payload) once no other payload of the emulator of `ctx`
 * is being decoded or processed.
 */
export function oneAtATime<T>(ctx: EmulatorContext, task: () => Promise<T>): Promise<T> {
  let gate = gates.get(ctx);
  if (gate === undefined) gates.set(ctx, (gate = new PQueue({ concurrency: 1 })));
  return gate.add(task, { throwOnTimeout: true });
}
