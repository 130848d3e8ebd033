/**
 * check: `check()` passes with the given config and secrets (the runner's `checkConnector`, as
 * `oaa run --check` calls it). Then, for each declared secret in turn, the secret is replaced by a
 * wrong value of the same shape (same length, each letter and digit replaced by a random one of
 * its kind, so that a format check still passes and nothing of the real value is in it):
 * `check()`, or the extract when there is no `check`, must fail with a credential error (see
 * `isCredentialRefusal`) within 30 s. A raw exception, another error, success or no answer fails.
 *
 * A recorded source (`recorded`: the fetch replays a recording, which matches requests without
 * their credentials) cannot refuse a credential: in front of it the kit answers 401 itself to
 * every request that carries the wrong value (in the URL, a header or the body, in any of the
 * forms of `secretForms`), so that what is checked is what the connector makes of a refusal.
 * A source being recorded (`unrecordedFetch` given) gets the requests with a wrong value past its
 * recording: a replay of the recording then answers only requests with the given secrets.
 */
import { randomInt } from 'node:crypto';
import { checkConnector } from '../pipeline/check-step.js';
import { createLogger } from '../logger.js';
import { describeError, isCredentialRefusal } from './error-rules.js';
import { within } from './kit.js';
import { findForm, secretForms } from './secret-forms.js';
import type { SecretForm } from './secret-forms.js';
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

function requestTexts(input: string | URL | Request, init: RequestInit | undefined): string[] {
  const url = input instanceof Request ? input.url : String(input);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const texts = [url, ...[...headers.values()]];
  const body = init?.body;
  if (typeof body === 'string') texts.push(body);
  else if (body instanceof URLSearchParams) texts.push(body.toString());
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body))
    texts.push(
      (body instanceof ArrayBuffer
        ? Buffer.from(body)
        : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
      ).toString('utf8'),
    );
  return texts;
}

/** A source that refuses (401) every request carrying one of `forms`, and passes the others on. */
export function refusingSource(
  inner: typeof globalThis.fetch,
  forms: readonly SecretForm[],
): typeof globalThis.fetch {
  return (input, init) => {
    if (!requestTexts(input, init).some((text) => findForm(text, forms) !== undefined))
      return inner(input, init);
    return Promise.resolve(
      new Response(JSON.stringify({ error: 'invalid credentials (answered by the acceptance kit)' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
}

/** One refused credential: the error, or what went wrong instead. */
async function refusal(
  kit: AcceptanceKit,
  secrets: Record<string, string>,
  wrong: readonly SecretForm[],
): Promise<{ ok: true } | { ok: false; why: string }> {
  const { connector } = kit;
  const recorded = kit.options.recorded === true;
  const source = kit.options.fetch ?? globalThis.fetch;
  const unrecorded = recorded ? undefined : kit.options.unrecordedFetch;
  const what = connector.check === undefined ? 'the extract' : 'check()';
  const controller = new AbortController();
  const attempt: Promise<{ passed: boolean; error?: unknown }> =
    connector.check === undefined
      ? kit
          .run({
            check: 'check',
            secrets,
            signal: controller.signal,
            ...(recorded ? { fault: (inner) => refusingSource(inner, wrong) } : {}),
            ...(unrecorded === undefined ? {} : { fault: () => unrecorded }),
          })
          .then((ended) =>
            ended.result !== undefined
              ? { passed: true }
              : { passed: false, error: ended.error ?? new Error('the run did not end, even when aborted') },
          )
      : checkConnector({
          ...checkOptions(kit),
          secrets,
          signal: controller.signal,
          ...(recorded ? { sourceFetch: refusingSource(source, wrong) } : {}),
          ...(unrecorded === undefined ? {} : { sourceFetch: unrecorded }),
        }).then(
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
    const value = wrongValue(kit.secrets[name]!);
    const outcome = await refusal(kit, { ...kit.secrets, [name]: value }, secretForms(name, value));
    if (!outcome.ok) return fail(`with a wrong value of secret "${name}", ${outcome.why}`);
  }
  if (declared.length > 0)
    said.push(
      `a wrong ${declared.map((n) => `"${n}"`).join(', a wrong ')} ${declared.length === 1 ? 'is' : 'are each'} refused with a credential error`,
    );
  return pass(said.join('; '));
}
