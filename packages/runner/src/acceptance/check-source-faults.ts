/**
 * source-faults (connectors that read through `ctx.http`): a fetch over the given one (live or
 * recorded) answers the first request 429 with `Retry-After: 1`, the next 500, drops the
 * connection on the third (a rejected fetch, as undici's `TypeError: fetch failed` with an
 * `ECONNRESET` cause), then passes every request through. The run must succeed, with the extract
 * check's digest when two plain extracts agree (see idempotent). Then with every request answered
 * 500, the run must fail with an `OaaError` whose message or details carry the status 500.
 */
import { carriesStatus, describeError } from './error-rules.js';
import { runFailure } from './check-extract.js';
import type { AcceptanceKit } from './kit.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome } from './types.js';

/** The error of a connection the source dropped, as undici rejects a fetch. */
export function droppedConnection(): TypeError {
  const reset = Object.assign(new Error('read ECONNRESET'), {
    code: 'ECONNRESET',
    errno: -104,
    syscall: 'read',
  });
  return new TypeError('fetch failed', { cause: reset });
}

/** A source that answers 429 (Retry-After: 1), then 500, then drops the connection, then recovers. */
export function flakySource(inner: typeof globalThis.fetch): typeof globalThis.fetch {
  let n = 0;
  return async (input, init) => {
    n++;
    if (n === 1)
      return new Response('too many requests (fault injected by the acceptance kit)', {
        status: 429,
        headers: { 'retry-after': '1' },
      });
    if (n === 2) return new Response('server error (fault injected by the acceptance kit)', { status: 500 });
    if (n === 3) throw droppedConnection();
    return inner(input, init);
  };
}

/** A source that answers every request 500. */
export function brokenSource(): typeof globalThis.fetch {
  return () =>
    Promise.resolve(
      new Response('server error (fault injected by the acceptance kit)', {
        status: 500,
        headers: { 'content-type': 'text/plain' },
      }),
    );
}

/** The source-faults check. */
export async function checkSourceFaults(kit: AcceptanceKit): Promise<CheckOutcome> {
  const base = await kit.baseline();
  if (base.result === undefined) return skip('the extract check failed');
  if (base.probe.requests === 0) return skip('the extract made no request through ctx.http');
  const flaky = await kit.run({ check: 'source-faults', fault: flakySource });
  if (flaky.result === undefined)
    return fail(
      `with the source answering 429 (Retry-After: 1), then 500, then dropping the connection, the run failed: ${runFailure(flaky)}; ctx.http retries these unless told not to (retries: 0)`,
    );
  const said = [`recovered from 429, 500 and a dropped connection (${flaky.probe.requests} requests)`];
  const idempotent = await kit.isIdempotent();
  if (idempotent === true && flaky.result.digest !== base.result.digest)
    return fail(`after recovering from the faults, the payload differs from the extract check's`, {
      digest: flaky.result.digest,
      expected: base.result.digest,
    });
  if (idempotent !== true) said.push('digest not compared (two plain extracts differ)');
  const broken = await kit.run({ check: 'source-faults', fault: () => brokenSource() });
  if (broken.result !== undefined)
    return fail('with the source answering 500 to every request, the run succeeded');
  if (broken.hung === true)
    return fail('with the source answering 500 to every request, the run did not end');
  if (!carriesStatus(broken.error, 500))
    return fail(
      `with the source answering 500 to every request, the run failed without the source's status: ${describeError(broken.error)}`,
    );
  said.push("a persistent 500 fails the run with the source's status");
  return pass(said.join('; '), { requests: flaky.probe.requests });
}
