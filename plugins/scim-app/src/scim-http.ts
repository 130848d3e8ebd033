/**
 * GET requests to the SCIM service through the runner's `ctx.http` (which owns retries and
 * Retry-After), with the configured auth. Failures become errors that name the URL and the status
 * and never the credential.
 */
import { OaaError, isOaaError, type ConnectorContext, type SourceRequestInit } from '@oaakit/core';
import { CREDENTIAL_SECRET, type ScimAppConfig, type ScimAuth } from './config.js';
import type { ScimAppErrorCode } from './error-codes.js';

/** Reads JSON documents from the SCIM service. */
export interface ScimReader {
  /** GET `path` (e.g. `/Users`) under the base URL with `query`; resolves to the parsed JSON body. */
  get(path: string, query?: Record<string, string | number>): Promise<unknown>;
}

type Ctx = Pick<
  ConnectorContext<ScimAppConfig, typeof CREDENTIAL_SECRET>,
  'config' | 'secrets' | 'http' | 'signal'
>;

/** The `Authorization` header value for `auth`. */
export function authorization(auth: ScimAuth, credential: string): string {
  switch (auth.type) {
    case 'bearer':
      return `Bearer ${credential}`;
    case 'basic':
      return `Basic ${Buffer.from(`${auth.username}:${credential}`, 'utf8').toString('base64')}`;
  }
}

/** A `ScimReader` over `ctx.http`. */
export function createScimReader(ctx: Ctx): ScimReader {
  const { auth, timeoutMs } = ctx.config;
  // No transform in the config schema (it must convert to JSON Schema), so the trailing slash goes here.
  const baseUrl = ctx.config.baseUrl.replace(/\/+$/, '');
  const credential = ctx.secrets[CREDENTIAL_SECRET];
  if (typeof credential !== 'string' || credential === '') {
    throw new OaaError<ScimAppErrorCode>(`secret "${CREDENTIAL_SECRET}" is not set`, {
      code: 'SECRET_MISSING',
      hints: [
        `set the secret "${CREDENTIAL_SECRET}" to the ${auth.type === 'bearer' ? 'bearer token' : 'password'} of the SCIM service`,
      ],
    });
  }
  const headers = {
    accept: 'application/scim+json, application/json',
    authorization: authorization(auth, credential),
  };

  return {
    async get(path, query = {}) {
      const url = new URL(`${baseUrl}${path}`);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
      const init: SourceRequestInit = { method: 'GET', headers, signal: ctx.signal };
      if (timeoutMs !== undefined) init.timeoutMs = timeoutMs;
      let text: string;
      try {
        const response = await ctx.http.request(url, init);
        text = await response.text();
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw requestFailed(url, auth, err);
      }
      try {
        return JSON.parse(text) as unknown;
      } catch (err) {
        throw new OaaError<ScimAppErrorCode>(
          `the SCIM service answered GET ${url.href} with a body that is not JSON`,
          {
            code: 'SCIM_BAD_RESPONSE',
            cause: err,
            details: { url: url.href, bodyStart: text.slice(0, 200) },
            hints: ['check baseUrl: it should be the SCIM base URL, e.g. https://app.example.com/scim/v2'],
          },
        );
      }
    },
  };
}

/** The HTTP status an error of `ctx.http` carries (`status` or `details.status`), if any. */
function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; details?: { status?: unknown } };
  const status = typeof e.status === 'number' ? e.status : e.details?.status;
  return typeof status === 'number' ? status : undefined;
}

function requestFailed(url: URL, auth: ScimAuth, err: unknown): OaaError<ScimAppErrorCode> {
  const status = statusOf(err);
  const who =
    auth.type === 'bearer' ? 'the bearer token' : `the password of user ${JSON.stringify(auth.username)}`;
  const hints: string[] = [];
  if (status === 401)
    hints.push(
      `the SCIM service refused the credentials: check the secret "${CREDENTIAL_SECRET}" (${who}) and auth.type`,
    );
  else if (status === 403)
    hints.push('the credentials are valid but may not read this resource: grant the SCIM client read access');
  else if (status === 404)
    hints.push(
      'check baseUrl: it should be the SCIM base URL (without /Users), e.g. https://app.example.com/scim/v2',
    );
  // A replay (oaa run --replay) without this request: its own hints say what to do.
  else if (isOaaError(err) && err.code === 'REPLAY_UNMATCHED') hints.push(...err.hints);
  else if (status === undefined) hints.push('check that baseUrl is reachable from this machine');
  const reason =
    status === undefined
      ? `failed: ${err instanceof Error ? err.message : String(err)}`
      : `was answered with HTTP ${status}`;
  return new OaaError<ScimAppErrorCode>(`SCIM request GET ${url.href} ${reason}`, {
    code: 'SCIM_REQUEST_FAILED',
    cause: err,
    // ctx.http's verdict when it has one (a replay's unmatched request will not be answered later).
    retryable: isOaaError(err) ? err.retryable : status === undefined || status === 429 || status >= 500,
    details: status === undefined ? { url: url.href } : { url: url.href, status },
    hints,
  });
}
