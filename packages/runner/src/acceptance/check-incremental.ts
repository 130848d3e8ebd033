/**
 * incremental (connectors that call `ctx.state.set`): the runner saves a connector's `ctx.state`
 * values with the state of a successful push (`pushAndCommit`, `commitSkipped`), and hands them to
 * the next run's `ctx.state`; `extract` still returns the whole payload (the runner pushes whole
 * payloads, and its digest and diff say what changed). So:
 * - A dry run over the state the extract check's run would have saved (its payload's snapshot,
 *   digest and counts, and the values it set) against the unchanged source reads less: fewer
 *   requests through `ctx.http`, else fewer streamed items. Its payload has the extract check's
 *   digest (when two plain extracts agree, see idempotent); if not, the runner's diff against the
 *   saved snapshot says what went missing or changed.
 *   A recording (`replayFetch`) without the requests of this run skips the check.
 * - A run that fails leaves the state as it was. The runner writes the state only in the commit
 *   after a successful push, so what a connector can get wrong is succeeding when its source
 *   fails: the run would then save the values it set, a cursor past data it never read. With the
 *   saved state and its source failing (every request answered 500 for a connector that uses
 *   `ctx.http`, else an abort at its first sign of progress), the run must fail, and the state
 *   directory, read back by the runner's `StateStore`, must be byte for byte as it was.
 */
import { isDeepStrictEqual } from 'node:util';
import { stateFiles } from '../testing/state-files.js';
import { describeError, isUnrecorded } from './error-rules.js';
import { diffText, runFailure } from './check-extract.js';
import { brokenSource } from './check-source-faults.js';
import type { AcceptanceKit, EndedRun } from './kit.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome } from './types.js';

/** How much a run read: requests through `ctx.http`, else items of streamed collections. */
function readMeasure(first: EndedRun, second: EndedRun): { what: string; first: number; second: number } {
  if (first.probe.requests > 0)
    return { what: 'source requests', first: first.probe.requests, second: second.probe.requests };
  return { what: 'streamed items', first: first.probe.streamedItems, second: second.probe.streamedItems };
}

/** The incremental check. */
export async function checkIncremental(kit: AcceptanceKit): Promise<CheckOutcome> {
  const base = await kit.baseline();
  if (base.result === undefined) return skip('the extract check failed');
  if (base.probe.stateSets === 0) return skip('extract did not call ctx.state.set: it keeps no state');
  const store = await kit.savedState(base.stateValues);
  if (store === undefined) return skip('the extract check saved no payload');

  const again = await kit.run({ check: 'incremental', store });
  if (again.result === undefined && isUnrecorded(again.error))
    return skip(
      `the recording has no answer for a request of the run with the saved state (${describeError(again.error)}): record the source with the acceptance run itself`,
    );
  if (again.result === undefined) return fail(`the run with the saved state failed: ${runFailure(again)}`);
  const read = readMeasure(base, again);
  if (read.first === 0)
    return skip('the extract read nothing the kit can count (no ctx.http request, no streamed item)');
  if (read.second >= read.first)
    return fail(
      `the run with the saved state read as much as the first (${read.second} ${read.what}, the first ${read.first}): the saved state is not used`,
      { ...read },
    );
  const said = [`with the saved state it read ${read.second} ${read.what} (the first run ${read.first})`];
  const idempotent = await kit.isIdempotent();
  if (idempotent === true && again.result.digest !== base.result.digest)
    return fail(
      `the run with the saved state gave another payload than the first (${diffText(again.result.diff)}): extract must return the whole payload`,
      { ...read, diff: again.result.diff },
    );
  said.push(idempotent === true ? 'same payload' : 'payload not compared (two plain extracts differ)');

  const dir = store.dirOf(kit.connectorId);
  const before = { files: await stateFiles(dir), state: await store.read(kit.connectorId) };
  const usesHttp = base.probe.requests > 0;
  const controller = new AbortController();
  const failed = await kit.run({
    check: 'incremental',
    store,
    ...(usesHttp
      ? { fault: () => brokenSource() }
      : { signal: controller.signal, onSign: () => controller.abort() }),
  });
  const how = usesHttp
    ? 'its source answering 500 to every request'
    : 'an abort at its first sign of progress';
  if (failed.result !== undefined && !usesHttp && failed.probe.sign === undefined) {
    said.push('no failing run tried (no sign of progress to abort at)');
    return pass(said.join('; '), { ...read });
  }
  if (failed.result !== undefined)
    return fail(
      `with the saved state and ${how}, the run succeeded: a run would have saved the state it set over data it did not read`,
    );
  const after = { files: await stateFiles(dir), state: await store.read(kit.connectorId) };
  if (!isDeepStrictEqual(before, after)) return fail(`the run that failed (${how}) changed the saved state`);
  said.push(`a run that failed (${how}) left the state as it was`);
  return pass(said.join('; '), { ...read });
}
