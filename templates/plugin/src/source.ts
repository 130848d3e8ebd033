/**
 * Reading the source system. `source` is the URL of its JSON export, fetched with the API token
 * through `ctx.http` (retries, Retry-After and the run's abort signal come with it), or the path of
 * a JSON file of the same shape, which is how the tests and a first `oaa run` read the fixture.
 * Replace this with your system's API calls; keep them behind `ctx.http` and `ctx.secrets`.
 */
import { access, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OaaError } from '@oaakit/core';
import type { ConnectorContext } from '@oaakit/core';

/** What reading the source needs from the context. */
export type SourceContext = Pick<
  ConnectorContext<{ source: string }, 'token'>,
  'config' | 'secrets' | 'http' | 'signal' | 'baseDir'
>;

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A file source's path: relative paths start at the config file's directory (`ctx.baseDir`). */
function filePath(ctx: SourceContext): string {
  return resolve(ctx.baseDir ?? '.', ctx.config.source);
}

function authorization(ctx: SourceContext): Record<string, string> {
  return { authorization: `Bearer ${ctx.secrets.token}` };
}

/** The export as parsed JSON; the caller checks its shape. */
export async function readSource(ctx: SourceContext): Promise<unknown> {
  const { source } = ctx.config;
  if (isUrl(source)) return ctx.http.json(source, { headers: authorization(ctx) });
  try {
    return JSON.parse(await readFile(filePath(ctx), { encoding: 'utf8', signal: ctx.signal })) as unknown;
  } catch (cause) {
    if (ctx.signal.aborted) throw cause;
    throw new OaaError<'SOURCE_UNREADABLE'>(`cannot read ${source}: ${(cause as Error).message}`, {
      code: 'SOURCE_UNREADABLE',
      cause,
      hints: ['`source` is a URL (http or https) or a path relative to the config file'],
    });
  }
}

/** The connector's `check`, cheap on purpose: the URL answers with the token, or the file exists. */
export async function checkSource(ctx: SourceContext): Promise<void> {
  const { source } = ctx.config;
  if (isUrl(source)) {
    const response = await ctx.http.request(source, { headers: authorization(ctx), retries: 0 });
    await response.body?.cancel();
    return;
  }
  try {
    await access(filePath(ctx));
  } catch (cause) {
    throw new OaaError<'SOURCE_UNREADABLE'>(`cannot read ${source}`, { code: 'SOURCE_UNREADABLE', cause });
  }
}
