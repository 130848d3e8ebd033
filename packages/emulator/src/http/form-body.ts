/**
 * `application/x-www-form-urlencoded` bodies (the sign-in and consent forms, `POST /oauth/token`):
 * parsed into an object of strings, a repeated field into an array of strings. Forms are small, so
 * their bodies are bounded far below the push limit.
 */
import type { FastifyInstance } from 'fastify';

/** Largest form body, in bytes. */
export const MAX_FORM_BYTES = 64 * 1024;
/** Most fields one form may carry. */
export const MAX_FORM_FIELDS = 100;

/** A parsed form: a repeated field is an array. */
export type FormBody = Record<string, string | string[]>;

/** Parses a form body; throws on too many fields. */
export function parseForm(text: string): FormBody {
  const out: FormBody = Object.create(null) as FormBody;
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > MAX_FORM_FIELDS) throw new RangeError(`a form may carry at most ${MAX_FORM_FIELDS} fields`);
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else out[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}

/** Registers the form body parser on `app`. */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_req, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (err) {
        const error = err as Error & { statusCode?: number };
        error.statusCode = 400;
        done(error, undefined);
      }
    },
  );
}
