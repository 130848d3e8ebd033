/**
 * check: `check()` passes with the given config and secrets (the runner's `checkConnector`, as
 * `oaa run --check` calls it). Then, for each declared secret in turn, the secret is replaced by a
 * wrong value of the same shape (same length, each letter and digit replaced by a random one of
 * its kind, so that a format check still passes and nothing of the real value is in it):
 * `check()`, or the extract when there is no `check`, must fail with a credential error (see
 * `isCredentialRefusal`) within 30 s. A raw exception, another error, success or no answer fails.
 */
import { randomInt } from 'node:crypto';
import { checkConnector } from '../pipeline/check-step.js';
import { createLogger } from '../logger.js';
import { describeError, isCredentialRefusal } from './error-rules.js';
import { within } from './kit.js';
import type { AcceptanceKit } from './kit.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome } from './types.js';

/** How long a refused credential may take to be reported. */
const REFUSAL_LIMIT_MS = 30_000;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

function other(set: string, c: string): string {
  let next = c;
  while (next === c) next = set[randomInt(set.length)]!;
  return next;
}

/** A wrong value with the shape of `value`; never equal to it. */
export function wrongValue(value: string): string {
  let out = '';
  for (const c of value) {
    if (LOWER.includes(c)) out += other(LOWER, c);
    else if (LOWER.toUpperCase().includes(c)) out += other(LOWER, c.toLowerCase()).toUpperCase();
    else if (DIGITS.includes(c)) out += other(DIGITS, c);
    else out += c;
  }
  return out === value ? `${value}x` : out;
}

/** One refused credential: the error, or what went wrong instead. */
async function refusal(
  kit: AcceptanceKit,
  secrets: Record<string, string>,
): Promise<{ ok: true } | { ok: false; why: string }> {
  const { connector } = kit;
  const what = connector.check === undefined ? 'the extract' : 'check()';
  const controller = new AbortController();
  const attempt: Promise<{ passed: boolean; error?: unknown }> =
    connector.check === undefined
      ? kit
          .run({ check: 'check', secrets, signal: controller.signal })
          .then((ended) =>
            ended.result !== undefined
              ? { passed: true }
              : { passed: false, error: ended.error ?? new Error('the run did not end, even when aborted') },
          )
      : checkConnector({ ...checkOptions(kit), secrets, signal: controller.signal }).then(
          () => ({ passed: true }),
          (error: unknown) => ({ passed: false, error }),
        );
  const outcome = await within(attempt, REFUSAL_LIMIT_MS);
  if (!outcome.settled) {
    controller.abort();
    return { ok: false, why: `${what} did not fail within ${REFUSAL_LIMIT_MS / 1000} s` };
  }
  const { passed, error } = outcome.value!;
  if (passed) return { ok: false, why: `${what} passed` };
  if (connector.check !== undefined) kit.noteError('check', error);
  if (isCredentialRefusal(error)) return { ok: true };
  return {
    ok: false,
    why: `${what} failed with ${describeError(error)}, not a credential error (code SOURCE_CREDENTIALS_REFUSED, or status 401 or 403)`,
  };
}

function checkOptions(kit: AcceptanceKit) {
  return {
    connector: kit.connector,
    connectorId: kit.connectorId,
    config: kit.options.config,
    logger: createLogger({
      level: 'trace',
      destination: {
        write: (line: string) => {
          kit.logs.push({ check: 'check', text: line.trimEnd() });
          kit.options.log?.(line);
        },
      },
    }),
    ...(kit.options.fetch === undefined ? {} : { sourceFetch: kit.options.fetch }),
    ...(kit.options.baseDir === undefined ? {} : { baseDir: kit.options.baseDir }),
  };
}

/** The check check. */
export async function checkCredentials(kit: AcceptanceKit): Promise<CheckOutcome> {
  const { connector } = kit;
  const declared = (connector.secrets ?? []).map((s) => s.name);
  if (connector.check === undefined && declared.length === 0)
    return skip('no check() and no declared secrets');
  const missing = declared.filter((name) => kit.secrets[name] === undefined);
  if (missing.length > 0)
    return fail(`no value given for secret${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  const said: string[] = [];
  if (connector.check !== undefined) {
    try {
      await checkConnector({ ...checkOptions(kit), secrets: kit.secrets });
      said.push('check() passed');
    } catch (error) {
      kit.noteError('check', error);
      return fail(`check() failed with the given config: ${describeError(error)}`);
    }
  }
  for (const name of declared) {
    const wrong = { ...kit.secrets, [name]: wrongValue(kit.secrets[name]!) };
    const outcome = await refusal(kit, wrong);
    if (!outcome.ok) return fail(`with a wrong value of secret "${name}", ${outcome.why}`);
  }
  if (declared.length > 0)
    said.push(
      `a wrong ${declared.map((n) => `"${n}"`).join(', a wrong ')} ${declared.length === 1 ? 'is' : 'are each'} refused with a credential error`,
    );
  return pass(said.join('; '));
}
