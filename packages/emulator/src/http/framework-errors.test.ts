/**
 * Errors fastify raises itself (bad URL, bad JSON, body too large, wrong media
 * type, unknown path, over-long id) answer in the service's error body, with `request_id` and the
 * `x-request-id` header, like every other error.
 */
import { describe, expect, it } from 'vitest';
import { USER_FACING_TYPE } from '@oaakit/core';
import { useEmulator, violations, type Answer } from '../private-test-helpers/harness.js';

const BODY_LIMIT = 4096;

/** The service's error body: what a client parses, whichever part of the server answered. */
function expectServiceError(r: Answer, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = r.headers.get('x-request-id');
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  expect(r.body).toMatchObject({ code, request_id: requestId, message: expect.any(String) });
  expect(Object.keys(r.body).sort()).toEqual(['code', 'details', 'message', 'request_id', 'timestamp']);
  expect(Number.isFinite(Date.parse(r.body.timestamp))).toBe(true);
  const details = r.body.details as { '@type'?: unknown }[];
  expect(details.every((d) => typeof d['@type'] === 'string')).toBe(true);
  expect(details.some((d) => d['@type'] === USER_FACING_TYPE)).toBe(true);
  expect(JSON.stringify(r.body)).not.toContain('FST_');
}

describe('framework errors in the service error body', () => {
  const h = useEmulator({ bodyLimit: BODY_LIMIT });

  it.each([
    ['in an id', '/api/v1/providers/custom/%ff'],
    ['in a fixed segment', '/api/v1/%ff/custom'],
    ['cut short', '/api/v1/providers/custom/abc%2'],
  ])('answers a malformed percent-encoding %s with 400 on path', async (_what, path) => {
    const r = await h().call('GET', path);
    expectServiceError(r, 400, 'InvalidArgument');
    expect(violations(r.body)[0]?.field).toBe('path');
    expect(violations(r.body)[0]?.description).toMatch(/percent-encoding/);
  });

  it('answers an id longer than the router takes with 400 on path', async () => {
    const r = await h().call('GET', `/api/v1/providers/custom/${'a'.repeat(500)}`);
    expectServiceError(r, 400, 'InvalidArgument');
    expect(violations(r.body)[0]).toMatchObject({ field: 'path', description: expect.stringMatching(/100/) });
  });

  it('answers a body that is not JSON with 400 on body', async () => {
    const r = await h().call('POST', '/api/v1/providers/custom', undefined, { raw: '{"name": ' });
    expectServiceError(r, 400, 'InvalidArgument');
    expect(violations(r.body)[0]).toMatchObject({
      field: 'body',
      description: expect.stringMatching(/JSON/),
    });
  });

  it('answers a body over the limit with 400 naming the payload field', async () => {
    const t = await h().target();
    const r = await h().call('POST', `${t.base}:push`, { json_data: 'x'.repeat(BODY_LIMIT * 2) });
    expectServiceError(r, 400, 'InvalidArgument');
    expect(violations(r.body)[0]).toMatchObject({
      field: 'json_data',
      description: expect.stringMatching(String(BODY_LIMIT)),
    });
  });

  it('answers a body of another media type with 400 on body', async () => {
    const r = await h().call('POST', '/api/v1/providers/custom', undefined, {
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectServiceError(r, 400, 'InvalidArgument');
    expect(violations(r.body)[0]).toMatchObject({
      field: 'body',
      description: expect.stringMatching(/JSON/),
    });
  });

  it('answers an unknown path with 404 naming the endpoint', async () => {
    const r = await h().call('POST', '/api/v1/providers/custom/abc/unknown');
    expectServiceError(r, 404, 'NotFound');
    expect(r.body.message).toBe('no endpoint POST /api/v1/providers/custom/abc/unknown');
  });

  it('records a malformed URL in the call log, not as a crash', async () => {
    await h().call('GET', '/api/v1/providers/custom/%ff');
    const calls = (await h().call('GET', '/_emulator/calls')).body.values as {
      path: string;
      status: number;
    }[];
    expect(calls).toEqual([expect.objectContaining({ path: '/api/v1/providers/custom/%ff', status: 400 })]);
  });
});
