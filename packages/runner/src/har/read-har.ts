/** Reads a HAR file for a replay: a recording of `oaa run --record`, or any HAR 1.2 file. */
import { readFile } from 'node:fs/promises';
import { OaaError } from '@oaakit/core';
import * as z from 'zod';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { formatViolations, schemaViolations } from '../config/issues.js';
import type { Har } from './types.js';

const nameValue = z.looseObject({ name: z.string(), value: z.string() });
const cookie = z.looseObject({ name: z.string(), value: z.string() });

/**
 * The fields HAR 1.2 requires, which is what a replay reads; anything else a tool adds (browsers add
 * many `_` fields) is allowed.
 */
const harSchema = z.looseObject({
  log: z.looseObject({
    version: z.string(),
    creator: z.looseObject({ name: z.string(), version: z.string() }),
    entries: z.array(
      z.looseObject({
        startedDateTime: z.string(),
        time: z.number(),
        request: z.looseObject({
          method: z.string().min(1),
          url: z.url({ error: 'must be an absolute URL' }),
          httpVersion: z.string(),
          cookies: z.array(cookie),
          headers: z.array(nameValue),
          queryString: z.array(nameValue),
          postData: z
            .looseObject({
              mimeType: z.string(),
              text: z.string().optional(),
              params: z.array(nameValue).optional(),
              _encoding: z.literal('base64').optional(),
            })
            .optional(),
          headersSize: z.number(),
          bodySize: z.number(),
        }),
        response: z.looseObject({
          status: z.int().min(0).max(599),
          statusText: z.string(),
          httpVersion: z.string(),
          cookies: z.array(cookie),
          headers: z.array(nameValue),
          content: z.looseObject({
            size: z.number(),
            mimeType: z.string(),
            text: z.string().optional(),
            encoding: z.string().optional(),
          }),
          redirectURL: z.string(),
          headersSize: z.number(),
          bodySize: z.number(),
          _error: z.string().optional(),
        }),
        cache: z.looseObject({}),
        timings: z.looseObject({ send: z.number(), wait: z.number(), receive: z.number() }),
      }),
    ),
  }),
});

/** Violations spelled out in the message; all of them are in `details.violations`. */
const LISTED = 20;

function invalid(
  file: string,
  why: string,
  cause?: unknown,
  details: Record<string, unknown> = {},
): OaaError {
  return new OaaError(`${file}: ${why}`, {
    code: RUNNER_ERROR_CODES.HAR_INVALID,
    ...(cause === undefined ? {} : { cause }),
    details: { file, ...details },
    hints: ['give a HAR file written by oaa run --record (or another HAR 1.2 file)'],
  });
}

/**
 * Reads and checks a HAR file. Throws `HAR_INVALID` naming the file when it cannot be read, is not
 * JSON, or is not HAR 1.2: then each wrong field is named by its path (`log.entries[3].response.status`).
 *
 * @example
 * const fetch = replayFetch(await readHar('source.har'), { file: 'source.har', scrub: { secrets } });
 */
export async function readHar(file: string): Promise<Har> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw invalid(
      file,
      code === 'ENOENT' ? 'no such HAR file' : `cannot read it: ${(cause as Error).message}`,
      cause,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (cause) {
    throw invalid(file, `not JSON, so not a HAR file: ${(cause as Error).message}`, cause);
  }
  const violations = schemaViolations(harSchema, json);
  if (violations.length > 0) {
    const listed = formatViolations(violations.slice(0, LISTED));
    const more = violations.length > LISTED ? `\n... and ${violations.length - LISTED} more` : '';
    throw invalid(file, `not a HAR 1.2 file:\n${listed}${more}`, undefined, { violations });
  }
  return json as Har;
}
