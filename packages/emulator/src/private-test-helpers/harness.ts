/**
 * Test harness: a real emulator on port 0 per test, plain `fetch` calls, and shortcuts for the setup
 * most tests need (a provider, a data source, a push).
 */
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, expect } from 'vitest';
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from '../server.js';

/** A parsed JSON answer: tests read it freely. */
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

export interface CallOptions {
  /** API key to send; `null` sends no Authorization header. Default: the admin key. */
  key?: string | null;
  /** A raw body instead of JSON. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  emu: RunningEmulator;
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer>;
  provider(
    name?: string,
    template?: string,
    extra?: Record<string, unknown>,
  ): Promise<{ id: string; name: string }>;
  dataSource(providerId: string, name?: string): Promise<{ id: string; name: string }>;
  /** A provider of `template` with one data source. */
  target(
    template?: string,
    extra?: Record<string, unknown>,
  ): Promise<{ providerId: string; dataSourceId: string; base: string }>;
  push(
    base: string,
    payload: unknown,
    options?: { gzip?: boolean; extra?: Record<string, unknown> },
  ): Promise<Answer>;
}

let counter = 0;

/** Starts a fresh emulator before each test and closes it after; returns an accessor. */
export function useEmulator(options: StartEmulatorOptions = {}): () => Harness {
  let harness: Harness | undefined;
  beforeEach(async () => {
    const emu = await startEmulator(options);
    const call: Harness['call'] = async (method, path, body, opts = {}) => {
      const headers: Record<string, string> = { ...opts.headers };
      const key = opts.key === undefined ? emu.adminKey : opts.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let payload: string | undefined = opts.raw;
      if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(emu.url + path, {
        method,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, headers: res.headers, body: parsed };
    };
    const provider: Harness['provider'] = async (name, template = 'application', extra = {}) => {
      const r = await call('POST', '/api/v1/providers/custom', {
        name: name ?? `provider ${++counter}`,
        custom_template: template,
        ...extra,
      });
      if (r.status !== 200) throw new Error(`provider create failed: ${JSON.stringify(r.body)}`);
      return (r.body as { value: { id: string; name: string } }).value;
    };
    const dataSource: Harness['dataSource'] = async (providerId, name) => {
      const r = await call('POST', `/api/v1/providers/custom/${providerId}/datasources`, {
        id: providerId,
        name: name ?? `ds ${++counter}`,
      });
      if (r.status !== 200) throw new Error(`data source create failed: ${JSON.stringify(r.body)}`);
      return (r.body as { value: { id: string; name: string } }).value;
    };
    harness = {
      emu,
      call,
      provider,
      dataSource,
      target: async (template = 'application', extra = {}) => {
        const p = await provider(undefined, template, extra);
        const ds = await dataSource(p.id);
        return {
          providerId: p.id,
          dataSourceId: ds.id,
          base: `/api/v1/providers/custom/${p.id}/datasources/${ds.id}`,
        };
      },
      push: async (base, payload, opts = {}) => {
        const [, providerId, dataSourceId] = /custom\/([^/]+)\/datasources\/([^/:]+)/.exec(base)!;
        const json = JSON.stringify(payload);
        const body = opts.gzip
          ? {
              id: providerId,
              data_source_id: dataSourceId,
              json_data: gzipSync(json).toString('base64'),
              compression_type: 'GZIP',
            }
          : { id: providerId, data_source_id: dataSourceId, json_data: json };
        return call('POST', `${base}:push`, { ...body, ...opts.extra });
      },
    };
  });
  afterEach(async () => {
    await harness?.emu.close();
    harness = undefined;
  });
  return () => {
    if (!harness) throw new Error('the emulator runs only inside a test');
    return harness;
  };
}

/** The `values` of a list answer. */
export function values<T = Record<string, unknown>>(answer: Answer): T[] {
  return (answer.body as { values: T[] }).values;
}

/** The `name` of every value of a list answer. */
export function names(answer: Answer): string[] {
  return values<{ name: string }>(answer).map((v) => v.name);
}

function details(body: unknown): Record<string, unknown>[] {
  const list = (body as { details?: unknown } | null)?.details;
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

/** The field violations of an error answer. */
export function violations(body: unknown): { field: string; description: string }[] {
  const detail = details(body).find((d) => Array.isArray(d.field_violations));
  return (detail?.field_violations as { field: string; description: string }[] | undefined) ?? [];
}

/** The one violation of a 400 InvalidArgument answer (the test fails on any other answer). */
export function onlyViolation(r: Answer): { field: string; description: string } {
  expect(r.status).toBe(400);
  expect(r.body.code).toBe('InvalidArgument');
  const all = violations(r.body);
  expect(all).toHaveLength(1);
  return all[0]!;
}

/** The user-facing detail of an error answer. */
export function userFacing(
  body: unknown,
): { reason: string; message: string; resolution: string; metadata: Record<string, string> } | undefined {
  return details(body).find((d) => typeof d.reason === 'string') as ReturnType<typeof userFacing>;
}

/** A small valid application payload. */
export function samplePayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    applications: [
      {
        name: 'acme',
        application_type: 'acme',
        local_users: [{ name: 'bob', identities: ['bob@example.com'], groups: ['devs'], is_active: true }],
        local_groups: [{ name: 'devs' }],
        local_roles: [{ name: 'admin', permissions: ['read'] }],
        resources: [
          {
            name: 'repo1',
            resource_type: 'repo',
            sub_resources: [{ name: 'main', resource_type: 'branch' }],
          },
        ],
      },
    ],
    permissions: [{ name: 'read', permission_type: ['DataRead'], apply_to_sub_resources: true }],
    identity_to_permissions: [
      {
        identity: 'bob',
        identity_type: 'local_user',
        role_assignments: [{ application: 'acme', role: 'admin', apply_to_application: true }],
      },
    ],
    ...overrides,
  };
}
