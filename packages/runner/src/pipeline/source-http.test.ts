import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OaaError } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { createSourceHttp } from './source-http.js';

let server: Server;
let base: string;
let answers: { status: number; body: string; headers?: Record<string, string> }[];
let seen: number;

beforeEach(async () => {
  seen = 0;
  answers = [];
  server = createServer((_req, res) => {
    const answer = answers[Math.min(seen, answers.length - 1)] ?? { status: 200, body: '{}' };
    seen += 1;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const http = (secrets: string[] = []) =>
  createSourceHttp({ signal: new AbortController().signal, logger: silentLogger(), minDelayMs: 1, secrets });

describe('ctx.http of a connector', () => {
  it('retries 429 and 503 (honouring Retry-After) and returns the JSON body', async () => {
    answers = [
      { status: 429, body: '', headers: { 'retry-after': '0' } },
      { status: 503, body: '' },
      { status: 200, body: '{"users":[1,2]}' },
    ];
    expect(await http().json(`${base}/users`)).toEqual({ users: [1, 2] });
    expect(seen).toBe(3);
  });

  it('does not retry a 404 and keeps the query string out of the error', async () => {
    answers = [{ status: 404, body: 'no such thing' }];
    const error = await http()
      .request(`${base}/users?token=s3cr3t`)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SOURCE_HTTP_ERROR', retryable: false, details: { status: 404 } });
    expect(JSON.stringify(error)).not.toContain('s3cr3t');
    expect((error as Error).message).not.toContain('s3cr3t');
    expect(seen).toBe(1);
  });

  it('gives up after the allowed retries', async () => {
    answers = [{ status: 502, body: '' }];
    await expect(http().request(`${base}/x`, { retries: 1 })).rejects.toMatchObject({
      code: 'SOURCE_HTTP_ERROR',
      retryable: true,
    });
    expect(seen).toBe(2);
  });

  it.each([401, 403])(
    'refuses the credentials on %i: SOURCE_CREDENTIALS_REFUSED, not retried, no secret in the error',
    async (status) => {
      answers = [{ status, body: '{"detail":"token s3cr3t-token is not valid"}' }];
      const error = await http(['s3cr3t-token'])
        .request(`${base}/users?access_token=s3cr3t-token`, {
          headers: { authorization: 'Bearer s3cr3t-token' },
          retries: 3,
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'SOURCE_CREDENTIALS_REFUSED',
        retryable: false,
        message: `GET ${base}/users answered ${status}: the source refused the connector's credentials`,
        details: {
          status,
          method: 'GET',
          url: `${base}/users`,
          body: '{"detail":"token [scrubbed] is not valid"}',
        },
      });
      expect(JSON.stringify(error)).not.toContain('s3cr3t');
      expect((error as OaaError).hints.join(' ')).not.toContain('s3cr3t');
      expect(seen).toBe(1);
    },
  );
});
