/**
 * Requests to the source, all through the runner's `ctx.http` (retries, `Retry-After`, timeouts,
 * the run's abort signal; recording and replay in tests and `oaa run --record/--replay`): the URL
 * from `source.base_url` and a stream's path and parameters, the headers, the credentials of
 * `source.auth`, and the manifest's rate limit. Answers are parsed as JSON. Messages give the URL
 * without its query string, where sources often take credentials.
 */
import { OaaError, type ConnectorLogger, type SourceHttp, type SourceRequestInit } from '@oaakit/core';
import { REST_ERROR_CODES, type RestErrorCode } from '../errors.js';
import type { CompiledManifest } from '../manifest/compile.js';
import { formatProblem } from '../manifest/source-map.js';
import { positiveWhole, textOf, type Bindings, type Template, type TemplateInput } from './expressions.js';
import { RateLimit } from './rate-limit.js';

/** What requests need of the connector context. */
export interface SourceContext {
  http: SourceHttp;
  secrets: Readonly<Record<string, string>>;
  vars: Record<string, unknown>;
  signal: AbortSignal;
  logger: ConnectorLogger;
}

/** One answer: its URL, status, headers, the text and the parsed JSON. */
export interface Answer {
  url: URL;
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** A request of a stream. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** The URL without its query string or credentials, for messages. */
export function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** `base` and `path` joined with one slash; an absolute `path` (a next-page URL) stands alone. */
export function joinUrl(base: string, path: string): URL {
  if (/^https?:\/\//i.test(path)) return new URL(path);
  if (path === '') return new URL(base);
  return new URL(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
}

interface Token {
  value: string;
  /** When to fetch another, in ms since the epoch. */
  renewAt: number;
}

export class Requester {
  private readonly limit: RateLimit;
  private baseUrl: Promise<string> | undefined;
  private staticHeaders: Promise<Record<string, string>> | undefined;
  private token: Promise<Token> | undefined;
  private concurrency: Promise<void> | undefined;
  /** Requests made; `oaa manifest try` and the benchmark report them. */
  requests = 0;

  constructor(
    private readonly manifest: CompiledManifest,
    private readonly ctx: SourceContext,
    private readonly bindings: Bindings,
  ) {
    const { requestsPerSecond, maxConcurrency } = manifest.source;
    this.limit = new RateLimit({
      requestsPerSecond,
      maxConcurrency: typeof maxConcurrency === 'number' ? maxConcurrency : undefined,
    });
  }

  /** A `max_concurrency` written as a template, evaluated once: a whole number of at least 1. */
  private concurrencyReady(): Promise<void> {
    return (this.concurrency ??= (async () => {
      const max = this.manifest.source.maxConcurrency;
      if (typeof max !== 'object') return;
      const value = await max.value(this.input(), this.bindings, () => 'source.rate_limit.max_concurrency');
      const n = positiveWhole(value);
      if (n === undefined) {
        const problem = this.manifest.file.problem(
          ['source', 'rate_limit', 'max_concurrency'],
          `must be a whole number of at least 1, not ${JSON.stringify(value) ?? 'nothing'}`,
        );
        throw new OaaError<RestErrorCode>(formatProblem(this.manifest.file.name, problem), {
          code: REST_ERROR_CODES.REST_MAPPING_FAILED,
          details: { manifest: this.manifest.file.name, path: problem.path, line: problem.line },
          hints: ['set the var it names to a whole number, e.g. 4'],
        });
      }
      this.limit.setMaxConcurrency(n);
    })());
  }

  private input(): TemplateInput {
    return { vars: this.ctx.vars };
  }

  private secret(name: string): string {
    const value = this.ctx.secrets[name];
    if (typeof value !== 'string' || value === '') {
      throw new OaaError<RestErrorCode>(`the secret "${name}" the manifest's source.auth uses is not set`, {
        code: REST_ERROR_CODES.REST_TOKEN_FAILED,
        hints: [`give the secret "${name}" in the connector entry's secrets`],
      });
    }
    return value;
  }

  /** `source.base_url`, evaluated once. */
  base(): Promise<string> {
    return (this.baseUrl ??= this.manifest.source.baseUrl.text(
      this.input(),
      this.bindings,
      () => 'source.base_url',
    ));
  }

  /** The URL of a stream's path with query parameters (and the query credential, if any). */
  async url(path: string, params: readonly [string, string][]): Promise<URL> {
    const url = joinUrl(await this.base(), path);
    for (const [name, value] of params) url.searchParams.set(name, value);
    return url;
  }

  /** Evaluates a list of named templates; a value that gives nothing leaves its name out. */
  async evaluate(
    list: readonly [string, Template][],
    input: TemplateInput,
    what: (name: string) => string,
  ): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for (const [name, template] of list) {
      const v = await template.value(input, this.bindings, () => what(name));
      if (v === undefined || v === null) continue;
      out.push([name, textOf(v)]);
    }
    return out;
  }

  /** The source's own headers and the credentials that do not change (everything but OAuth2's token). */
  private headers(): Promise<Record<string, string>> {
    return (this.staticHeaders ??= (async () => {
      const headers: Record<string, string> = { accept: 'application/json' };
      for (const [name, value] of await this.evaluate(
        this.manifest.source.headers,
        this.input(),
        (n) => `source.headers.${n}`,
      ))
        headers[name.toLowerCase()] = value;
      const auth = this.manifest.source.auth;
      switch (auth.type) {
        case 'bearer':
          headers['authorization'] = `Bearer ${this.secret(auth.secret)}`;
          break;
        case 'basic': {
          const user = await auth.username.text(this.input(), this.bindings, () => 'source.auth.username');
          headers['authorization'] =
            `Basic ${Buffer.from(`${user}:${this.secret(auth.secret)}`, 'utf8').toString('base64')}`;
          break;
        }
        case 'header':
          headers[auth.name.toLowerCase()] = this.secret(auth.secret);
          break;
        case 'none':
        case 'query':
        case 'oauth2_client_credentials':
          // No header (query: a parameter of each URL; OAuth2: a token fetched when needed).
          break;
      }
      return headers;
    })());
  }

  /** An OAuth2 access token of the client credentials grant, fetched again shortly before it expires. */
  private async accessToken(): Promise<string> {
    const current = this.token === undefined ? undefined : await this.token.catch(() => undefined);
    if (current === undefined || Date.now() >= current.renewAt) {
      this.token = this.fetchToken();
      this.token.catch(() => undefined);
    }
    return (await this.token!).value;
  }

  private async fetchToken(): Promise<Token> {
    const auth = this.manifest.source.auth;
    if (auth.type !== 'oauth2_client_credentials') throw new Error('not an OAuth2 source');
    const input = this.input();
    const tokenUrl = new URL(await auth.tokenUrl.text(input, this.bindings, () => 'source.auth.token_url'));
    const clientId = await auth.clientId.text(input, this.bindings, () => 'source.auth.client_id');
    const secret = this.secret(auth.secret);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scopes.length > 0) form.set('scope', auth.scopes.join(' '));
    for (const [name, value] of await this.evaluate(auth.params, input, (n) => `source.auth.params.${n}`))
      form.set(name, value);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (auth.clientAuth === 'basic') {
      // RFC 6749 2.3.1: each part form-encoded first.
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`;
      headers['authorization'] = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', secret);
    }
    const answer = await this.send(
      { method: 'POST', url: tokenUrl, headers, body: form.toString() },
      'the OAuth2 token request',
    );
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | null;
    if (typeof body?.access_token !== 'string' || body.access_token === '') {
      throw new OaaError<RestErrorCode>(
        `the token endpoint ${shownUrl(tokenUrl)} answered without an access_token`,
        {
          code: REST_ERROR_CODES.REST_TOKEN_FAILED,
          details: { url: shownUrl(tokenUrl) },
          hints: ['check source.auth.token_url: it should be the OAuth2 token endpoint'],
        },
      );
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
    // Renewed 30 s (or a tenth of its life) before it expires; a token without expiry is kept.
    const life = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : Infinity;
    return { value: body.access_token, renewAt: Date.now() + life - Math.min(30_000, life / 10) };
  }

  /** A stream's request, with the source's headers and credentials, under the rate limit. */
  async request(spec: RequestSpec, what: string): Promise<Answer> {
    const auth = this.manifest.source.auth;
    const headers = { ...(await this.headers()), ...lower(spec.headers) };
    if (auth.type === 'oauth2_client_credentials')
      headers['authorization'] = `Bearer ${await this.accessToken()}`;
    const url = new URL(spec.url);
    if (auth.type === 'query' && !url.searchParams.has(auth.name))
      url.searchParams.set(auth.name, this.secret(auth.secret));
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] ??= 'application/json';
    }
    const answer = await this.send({ method: spec.method, url, headers, body, signal: spec.signal }, what);
    // The answer's URL is the one asked for, without the query credential (next links resolve from it).
    return { ...answer, url: spec.url };
  }

  private async send(
    spec: {
      method: string;
      url: URL;
      headers: Record<string, string>;
      body?: string | undefined;
      signal?: AbortSignal | undefined;
    },
    what: string,
  ): Promise<Answer> {
    const { source } = this.manifest;
    const signal = spec.signal ?? this.ctx.signal;
    const init: SourceRequestInit = { method: spec.method, headers: spec.headers, signal };
    if (spec.body !== undefined) init.body = spec.body;
    if (source.timeoutMs !== undefined) init.timeoutMs = source.timeoutMs;
    if (source.retries !== undefined) init.retries = source.retries;
    await this.concurrencyReady();
    return this.limit.run(signal, async () => {
      this.requests += 1;
      const response = await this.ctx.http.request(spec.url, init);
      const text = await response.text();
      let body: unknown = null;
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text) as unknown;
        } catch (cause) {
          throw new OaaError<RestErrorCode>(
            `${spec.method} ${shownUrl(spec.url)} (${what}) answered with a body that is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
            {
              code: REST_ERROR_CODES.REST_BAD_RESPONSE,
              cause,
              details: { url: shownUrl(spec.url), status: response.status },
              hints: ["check source.base_url and the stream's path: they should lead to the JSON API"],
            },
          );
        }
      }
      return { url: spec.url, status: response.status, headers: response.headers, text, body };
    });
  }
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
