/**
 * cancels: a run is aborted at its first sign of progress (the first request through `ctx.http`,
 * the first `ctx.progress` call, or the first item read from a streamed collection), in the
 * handler of that event, never after a sleep. The run must then end within 5 s with the runner's
 * cancelled outcome (`ABORTED`). Returning a payload as success after the abort fails (it is
 * partial, or the work went on regardless), as does any other error. A run still going 5 s after
 * the abort fails "did not stop within 5 s" and is left running: the kit does not wait for it.
 * A run that ends before any sign of progress has nothing to abort partway: skipped.
 */
import { describeError, isAborted } from './error-rules.js';
import { within } from './kit.js';
import type { AcceptanceKit } from './kit.js';
import type { ProgressSign } from './probe.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome } from './types.js';

/** How long an aborted run may take to end. */
export const CANCEL_LIMIT_MS = 5_000;

/** The cancels check. */
export async function checkCancels(kit: AcceptanceKit): Promise<CheckOutcome> {
  const controller = new AbortController();
  let abortedAt = 0;
  let sign: ProgressSign | undefined;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<'aborted'>((resolve) => (onAbort = () => resolve('aborted')));
  const { done } = kit.start({
    check: 'cancels',
    signal: controller.signal,
    onSign: (first) => {
      sign = first;
      abortedAt = performance.now();
      controller.abort();
      onAbort();
    },
  });
  const settled = done.then(
    () => 'succeeded' as const,
    () => 'failed' as const,
  );
  // The run is left if it never stops: its outcome is read here and nowhere else.
  const first = await Promise.race([settled, aborted]);
  if (first !== 'aborted') {
    if (first === 'succeeded')
      return skip(
        'extract gave no sign of progress (no ctx.http request, no ctx.progress call, no streamed item) before it returned: nothing to abort partway',
      );
    return skip('the run failed before any sign of progress (see the extract check)');
  }
  const outcome = await within(done, CANCEL_LIMIT_MS);
  const at = `aborted at ${sign ?? 'the first sign of progress'}`;
  if (!outcome.settled)
    return fail(`${at}; did not stop within ${CANCEL_LIMIT_MS / 1000} s (ctx.signal must end the work)`);
  const ms = Math.round(performance.now() - abortedAt);
  if (outcome.ok)
    return fail(
      `${at}; returned a payload as success after the abort: it must stop and throw (ctx.signal.throwIfAborted()) rather than return what it has`,
    );
  if (isAborted(outcome.error))
    return pass(`${at}; stopped with the cancelled outcome`, { stoppedAfterMs: ms });
  return fail(`${at}; ended with ${describeError(outcome.error)} instead of the cancelled outcome`);
}
