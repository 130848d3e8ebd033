/**
 * The names of `Object.prototype`'s properties (`constructor`, `__proto__`, `toString`, ...) wherever
 * a request picks from a fixed set: each path segment of every route the emulator declares, the
 * query parameters that pick a field, an order or a kind, and the body fields that do. A plain
 * object looked up with such a name finds a function; every answer here must be a 400 or 404 that
 * names the value, never a 500, and nothing may be logged as an unexpected error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from './auth/route-access.js';
import type { EmulatorLogger } from './logger.js';
import { startEmulator, type RunningEmulator } from './server.js';
import { samplePayload } from './private-test-helpers/harness.js';
import { signInToConsole, type ConsoleSignIn } from './testing/console-session.js';

const NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  '__defineGetter__',
];
const USER = { email: 'ada@example.com', given_name: 'Ada', family_name: 'L', password: 'look me up please' };

interface Answer {
  status: number;
  text: string;
}

describe('names of built-in object properties in requests', () => {
  let emu: RunningEmulator;
  let session: ConsoleSignIn;
  const unexpected: unknown[] = [];
  const logger: EmulatorLogger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (obj, msg) => unexpected.push({ obj, msg }),
  };
  /** Real ids, so a route's other path segments name things that exist. */
  const ids: Record<string, string> = {};

  const send = async (
    method: string,
    path: string,
    options: { auth?: 'admin' | 'session' | 'none'; body?: unknown; form?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    const auth = options.auth ?? 'admin';
    if (auth === 'admin') headers.authorization = `Bearer ${emu.adminKey}`;
    if (auth === 'session') {
      headers.cookie = session.cookie;
      headers['x-csrf-token'] = session.csrfToken;
      headers['sec-fetch-site'] = 'same-origin';
    }
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (method !== 'GET' && method !== 'HEAD') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body ?? {});
    }
    const r = await fetch(emu.url + path, { method, headers, redirect: 'manual', ...(body ? { body } : {}) });
    return { status: r.status, text: await r.text() };
  };
  const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await send(method, path, { body });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return JSON.parse(r.text);
  };

  beforeAll(async () => {
    emu = await startEmulator({ logger });
    const provider = await admin('POST', '/api/v1/providers/custom', {
      name: 'lookups',
      custom_template: 'application',
    });
    ids.provider = provider.value.id;
    const base = `/api/v1/providers/custom/${ids.provider}/datasources`;
    ids.dataSource = (await admin('POST', base, { id: ids.provider, name: 'main' })).value.id;
    await admin('POST', `${base}/${ids.dataSource}:push`, {
      id: ids.provider,
      data_source_id: ids.dataSource,
      json_data: JSON.stringify(samplePayload()),
    });
    ids.apiKey = (await admin('POST', '/_emulator/api_keys', { role: 'member' })).value.id;
    const app = await admin('POST', '/_emulator/oauth_apps', {
      client_name: 'Lookups',
      base_url: 'https://example.com',
      redirect_uris: ['https://example.com/cb'],
      allowed_scopes: ['profile'],
    });
    ids.clientId = app.value.client_id;
    ids.clientSecret = app.value.client_secret;
    await admin('POST', '/_emulator/users', USER);
    session = await signInToConsole({ url: emu.url, email: USER.email, password: USER.password });
  });
  afterAll(async () => {
    await emu?.close();
  });

  /** A real value for a path parameter of `route`, when one exists. */
  const good = (route: string, param: string): string | undefined => {
    if (route.startsWith('/api/v1/providers/custom/')) return param === 'ds' ? ids.dataSource : ids.provider;
    if (route.startsWith('/_emulator/oauth_apps/') && param === 'client_id') return ids.clientId;
    if (route.startsWith('/_emulator/api_keys/')) return ids.apiKey;
    return undefined;
  };

  /**
   * Records a failure unless `r` is a 400 or 404 error body with a message, and (when given) one
   * that says `named`: the value for a field or order, the field for a body.
   */
  const checkAnswer = (what: string, r: Answer, failures: string[], named?: string): void => {
    let message: unknown;
    try {
      const body = JSON.parse(r.text) as { message?: unknown; error_description?: unknown };
      message = body.message ?? body.error_description;
    } catch {
      // The OAuth2 pages answer a person: the message is the page's.
      message = r.text.startsWith('<!doctype html>') ? r.text : undefined;
    }
    if (r.status !== 400 && r.status !== 404) failures.push(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
    else if (typeof message !== 'string' || message === '')
      failures.push(`${what}: no error message: ${r.text.slice(0, 300)}`);
    else if (named !== undefined && !r.text.includes(named))
      failures.push(`${what}: ${r.status} does not name ${named}: ${r.text.slice(0, 300)}`);
  };

  it('answers 400 or 404 for each path segment of every route', async () => {
    const routes = (await admin('GET', '/_emulator/routes')).values as DeclaredRoute[];
    const failures: string[] = [];
    let walked = 0;
    for (const route of routes) {
      if (route.method === 'HEAD') continue;
      const params = [...route.url.matchAll(/(?<!:):([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      if (params.length === 0) continue;
      const auth =
        route.access === 'session'
          ? 'session'
          : route.access === 'public' || route.access === 'oauth_token'
            ? 'none'
            : 'admin';
      for (const [i, param] of params.entries()) {
        for (const name of NAMES) {
          const real = good(route.url, param);
          // The name alone, and (where the segment has a real value) as the action after it.
          for (const value of real === undefined ? [name] : [name, `${real}:${name}`]) {
            let n = 0;
            const path = route.url.replace(/::|(?<!:):([A-Za-z0-9_]+)/g, (part, p: string | undefined) => {
              if (part === '::') return ':';
              const at = n++;
              if (at === i) return encodeURIComponent(value).replaceAll('%3A', ':');
              return good(route.url, p!) ?? name;
            });
            const r = await send(route.method, path, { auth });
            walked++;
            checkAnswer(`${route.method} ${path}`, r, failures);
          }
        }
      }
    }
    expect(walked).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers 400 naming the value for query parameters that pick a field, an order or a kind', async () => {
    const failures: string[] = [];
    const providers = '/api/v1/providers/custom';
    const dataSources = `${providers}/${ids.provider}/datasources`;
    for (const name of NAMES) {
      const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();
      const cases: [string, string, 'admin' | 'session' | 'none'][] = [
        ['GET', `${providers}?${q({ order_by: name })}`, 'admin'],
        ['GET', `${providers}?${q({ order_by: `name, ${name} desc` })}`, 'admin'],
        ['GET', `${providers}?${q({ filter: `${name} eq "x"` })}`, 'admin'],
        ['GET', `${dataSources}?${q({ order_by: name })}`, 'admin'],
        ['GET', `${dataSources}?${q({ filter: `${name} eq "x"` })}`, 'admin'],
        ['GET', `/api/preview/events?${q({ filter: `${name} eq "x"` })}`, 'admin'],
        ['GET', `/api/preview/events?${q({ filter: `${name} pr` })}`, 'admin'],
        ['GET', `/api/v1/providers/custom:icon?${q({ app_or_idp_type: name })}`, 'admin'],
        ['GET', `/api/v1/providers/custom:icon?${q({ node_type: `OAA.${name}.User` })}`, 'admin'],
        ['GET', `/console/api/graph?${q({ data_source_id: name })}`, 'session'],
        [
          'GET',
          `/oauth/authorize?${q({ client_id: name, response_type: 'code', redirect_uri: 'https://example.com/cb' })}`,
          'none',
        ],
      ];
      for (const [method, path, auth] of cases)
        checkAnswer(`${method} ${path}`, await send(method, path, { auth }), failures, name);
    }
    // Past the client and redirect URI checks, authorization errors go back to the client (RFC 6749).
    for (const name of NAMES) {
      for (const field of ['response_type', 'scope', 'code_challenge_method']) {
        const params = new URLSearchParams({
          client_id: ids.clientId!,
          response_type: 'code',
          redirect_uri: 'https://example.com/cb',
          scope: 'profile',
          state: 's',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          [field]: name,
        });
        const r = await fetch(`${emu.url}/oauth/authorize?${params.toString()}`, { redirect: 'manual' });
        await r.arrayBuffer();
        const to = new URL(r.headers.get('location') ?? '/', emu.url);
        if (r.status !== 302 || to.origin !== 'https://example.com' || !to.searchParams.get('error'))
          failures.push(`GET /oauth/authorize ${field}=${name}: ${r.status} ${to.toString()}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 400 naming the field for body fields that pick a kind, a template or a grant', async () => {
    const failures: string[] = [];
    for (const name of NAMES) {
      type Case = [
        string,
        string,
        { body?: unknown; form?: Record<string, string>; auth?: 'none' | 'session' },
        string,
      ];
      const cases: Case[] = [
        [
          'POST',
          '/api/v1/providers/custom',
          { body: { name: `p ${name}`, custom_template: name } },
          'custom_template',
        ],
        ['POST', '/_emulator/api_keys', { body: { role: name } }, 'role'],
        ['POST', '/_emulator/faults', { body: { status: 503, code: name } }, 'code'],
        ['POST', '/_emulator/users', { body: { ...USER, email: 'x@example.com', role: name } }, 'role'],
        [
          'POST',
          '/api/preview/notifications/email_templates',
          {
            body: { value: { name: 'n', subject_template: 's', body_template_base64: 'eA==', usage: name } },
          },
          'usage',
        ],
        [
          'POST',
          '/console/api/templates/preview',
          { auth: 'session', body: { subject_template: 's', body_template_base64: 'eA==', usage: name } },
          'usage',
        ],
        [
          'POST',
          '/_emulator/subscriptions',
          {
            body: {
              name: 'n',
              filter: { categories: [name] },
              destination: { type: 'CUSTOM_WEBHOOK', url: 'https://example.com/hook' },
            },
          },
          'categories',
        ],
        [
          'POST',
          '/_emulator/feature_flags',
          { body: { [name]: true } },
          name === '__proto__' ? 'body' : name,
        ],
        [
          'POST',
          '/api/v1/assessments/query_spec:nodes',
          { body: { query_type: name, source_node_types: { nodes: [{ node_type: 'OAA.x.User' }] } } },
          'query_type',
        ],
        [
          'POST',
          '/api/v1/assessments/query_spec:nodes',
          {
            body: {
              source_node_types: {
                nodes: [
                  {
                    node_type: 'OAA.x.User',
                    condition_expression: { specs: [{ fn: name, property: 'name', value: 'x' }] },
                  },
                ],
              },
            },
          },
          'fn',
        ],
        [
          'POST',
          '/oauth/token',
          {
            auth: 'none',
            form: { grant_type: name, client_id: ids.clientId!, client_secret: ids.clientSecret! },
          },
          'grant_type',
        ],
      ];
      for (const [method, path, options, field] of cases) {
        const r = await send(method, path, { ...options, auth: options.auth ?? 'admin' });
        checkAnswer(`${method} ${path} ${JSON.stringify(options.body ?? options.form)}`, r, failures, field);
      }
    }
    expect(failures).toEqual([]);
  });

  it('finds no node property by such a name: NOT_EQ holds, EQ does not', async () => {
    const query = (fn: string, property: string) =>
      admin('POST', '/api/v1/assessments/query_spec:nodes', {
        source_node_types: {
          nodes: [
            { node_type: 'OAA.acme.User', condition_expression: { specs: [{ fn, property, value: 'x' }] } },
          ],
        },
      });
    const all = ((await query('NOT_EQ', 'name')).values as unknown[]).length;
    expect(all).toBe(1);
    for (const name of NAMES) {
      expect(((await query('NOT_EQ', name)).values as unknown[]).length, name).toBe(all);
      expect(((await query('EQ', name)).values as unknown[]).length, name).toBe(0);
    }
  });

  it('logged no unexpected error for any of it', () => {
    expect(unexpected).toEqual([]);
  });
});
