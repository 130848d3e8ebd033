/** Progress plumbing: the connector's `ctx.progress`, and throttling of frequent events. */
import type { ProgressReporter } from '@oaakit/core';
import type { RunProgressEvent } from './run-types.js';

/** Emits a run's events, stamped with its connector id. */
export type Emit = (event: Omit<RunProgressEvent, 'connectorId'>) => void;

/** `ready()` is true at most once per `intervalMs`: frequent updates become a few events. */
export function throttle(intervalMs: number, now: () => number = Date.now): { ready(): boolean } {
  let last = -Infinity;
  return {
    ready() {
      const t = now();
      if (t - last < intervalMs) return false;
      last = t;
      return true;
    },
  };
}

/** A `ctx.progress` that reports the connector's steps as `extract` progress events. */
export function extractProgress(emit: Emit, intervalMs = 100): ProgressReporter {
  let step: string | undefined;
  let done = 0;
  let total: number | undefined;
  const gate = throttle(intervalMs);
  const send = (): void => {
    emit({
      phase: 'extract',
      kind: 'progress',
      done,
      ...(step === undefined ? {} : { step }),
      ...(total === undefined ? {} : { total }),
    });
  };
  return {
    start(name, count) {
      step = name;
      done = 0;
      total = count;
      send();
    },
    tick(n = 1) {
      done += n;
      if ((total !== undefined && done >= total) || gate.ready()) send();
    },
  };
}
