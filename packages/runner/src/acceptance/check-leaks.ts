/**
 * no-secret-leaks: no declared secret's value is in the payload, the log lines or the error texts
 * of any check of this acceptance run. Searched byte by byte: the payload as the run serialized it
 * (core's serializer, the extract check's saved payload), every log line as the run's logger wrote
 * it (with the runner's redaction, as in a real run), and every error text (message, details,
 * hints of the whole cause chain). Each secret is searched in the forms of `secretForms`. A leak
 * is reported by where it is (a payload path, `log line N`, `error of check X`), never by value.
 * It runs after every other check, to see what they all left.
 */
import { createReadStream } from 'node:fs';
import { ByteSearch, findForm, searchableSecrets } from './secret-forms.js';
import type { SecretForm } from './secret-forms.js';
import { errorTexts } from './error-rules.js';
import type { AcceptanceKit } from './kit.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome } from './types.js';

/** The path of the first string of `value` that holds `text` (a key or a value), if any. */
export function pathOf(value: unknown, text: string, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(text) ? path || '(the payload)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOf(value[i], text, `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (key.includes(text)) return `${at} (a key)`;
    const found = pathOf(inner, text, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

function label(form: SecretForm): string {
  return `secret "${form.secret}"${form.form === 'as is' ? '' : ` (${form.form})`}`;
}

/** The no-secret-leaks check. */
export async function checkLeaks(kit: AcceptanceKit): Promise<CheckOutcome> {
  const declared = (kit.connector.secrets ?? []).map((s) => s.name);
  if (declared.length === 0) return skip('no declared secrets');
  const values: Record<string, string> = {};
  for (const name of declared) if (kit.secrets[name] !== undefined) values[name] = kit.secrets[name];
  const { forms, tooShort } = searchableSecrets(values);
  const notes = tooShort.map((n) => `secret "${n}" is shorter than 4 characters: not searched`);
  if (forms.length === 0) return skip(notes.length > 0 ? notes.join('; ') : 'no secret values given');

  const leaks: string[] = [];
  const base = await kit.baseline();
  let payloadBytes = 0;
  if (base.payloadFile !== undefined) {
    const search = new ByteSearch(forms);
    for await (const chunk of createReadStream(base.payloadFile)) {
      search.push(chunk as Buffer);
      payloadBytes += (chunk as Buffer).byteLength;
    }
    if (search.hits.length > 0) {
      const payload = await kit.baselinePayload();
      for (const hit of search.hits) {
        const path = pathOf(payload, hit.form.text) ?? `byte ${hit.offset}`;
        leaks.push(`${label(hit.form)} in the payload at ${path}`);
      }
    }
  } else {
    notes.push('the payload was not searched (the extract check failed)');
  }
  kit.logs.forEach((line, i) => {
    const form = findForm(line.text, forms);
    if (form !== undefined) leaks.push(`${label(form)} in log line ${i + 1} (check ${line.check})`);
  });
  let texts = 0;
  for (const { check, error } of kit.errors) {
    for (const text of errorTexts(error)) {
      texts++;
      const form = findForm(text, forms);
      if (form === undefined) continue;
      leaks.push(`${label(form)} in an error of check ${check}`);
      break;
    }
  }
  const details = {
    payloadBytes,
    logLines: kit.logs.length,
    errorTexts: texts,
    secrets: Object.keys(values).filter((n) => !tooShort.includes(n)),
  };
  if (leaks.length > 0) return fail([...leaks, ...notes].join('; '), { ...details, leaks });
  const n = details.secrets.length;
  return pass(
    [
      `${n} secret${n === 1 ? '' : 's'} found nowhere in ${payloadBytes} payload bytes, ${kit.logs.length} log lines and ${texts} error texts`,
      ...notes,
    ].join('; '),
    details,
  );
}
