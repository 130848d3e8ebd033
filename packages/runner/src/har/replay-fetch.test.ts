/**
 * Replaying a recording: requests recorded from a real HTTP server are answered from the file after
 * the server is closed; what matches, in which order, and what an unmatched request does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { createSourceHttp } from '../pipeline/source-http.js';
import { rejection } from '../private-test-helpers/rejection.js';
import { startSourceServer } from '../private-test-helpers/source-server.js';
import type { SourceServer } from '../private-test-helpers/source-server.js';
import { readHar } from './read-har.js';
import { HarRecorder } from './recorder.js';
import { recordingFetch } from './recording-fetch.js';
import { replayFetch } from './replay-fetch.js';
import type { HarScrub } from './scrub.js';
import type { Har } from './types.js';

let server: SourceServer;
let dir: string;
let open: boolean;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-replay-'));
  // Each answer says which request of its kind it was: `GET /n #2`.
  const seen = new Map<string, number>();
  server = await startSourceServer((req, res) => {
    const key = `${req.method} ${req.url} ${req.body.toString()}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    res.writeHead(200, { 'content-type': 'application/json', 'x-request': String(n) });
    res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body.toString(), n }));
  });
  open = true;
});
afterEach(async () => {
  if (open) await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Records `calls` against the server, writes the file, closes the server and reads the file back. */
async function record(
  calls: (fetch: typeof globalThis.fetch, origin: string) => Promise<unknown>,
  scrub: HarScrub = {},
): Promise<{ har: Har; file: string }> {
  const recorder = new HarRecorder({ scrub });
  await calls(recordingFetch(globalThis.fetch, recorder), server.origin);
  const file = join(dir, 'source.har');
  await recorder.write(file);
  await server.close();
  open = false;
  return { har: await readHar(file), file };
}

async function bodyOf(res: Response): Promise<unknown> {
  return res.json();
}

describe('replayFetch', () => {
  it('answers by method, URL and body with a real Response, once the source is gone', async () => {
    const { har } = await record(async (fetch, origin) => {
      await fetch(`${origin}/users?page=1`);
      await fetch(`${origin}/users?page=2`);
      await fetch(`${origin}/search`, { method: 'POST', body: '{"q":"a"}' });
      await fetch(`${origin}/search`, { method: 'POST', body: '{"q":"b"}' });
    });
    const origin = server.origin;
    const replay = replayFetch(har);

    const page2 = await replay(`${origin}/users?page=2`);
    expect(page2).toBeInstanceOf(Response);
    expect(page2.status).toBe(200);
    expect(page2.headers.get('content-type')).toBe('application/json');
    expect(page2.url).toBe(`${origin}/users?page=2`);
    expect(await bodyOf(page2)).toMatchObject({ url: '/users?page=2' });
    expect(await bodyOf(await replay(new URL(`${origin}/users?page=1`)))).toMatchObject({
      url: '/users?page=1',
    });
    const b = await replay(new Request(`${origin}/search`, { method: 'POST', body: '{"q":"b"}' }));
    expect(await bodyOf(b)).toMatchObject({ body: '{"q":"b"}' });
    const a = await replay(`${origin}/search`, { method: 'post', body: '{"q":"a"}' });
    expect(await bodyOf(a)).toMatchObject({ body: '{"q":"a"}' });
  });

  it('answers the same request in recorded order, then repeats the last answer', async () => {
    const { har } = await record(async (fetch, origin) => {
      for (let i = 0; i < 3; i++) await (await fetch(`${origin}/n`)).text();
    });
    const replay = replayFetch(har);
    const answers: string[] = [];
    for (let i = 0; i < 5; i++)
      answers.push((await replay(`${server.origin}/n`)).headers.get('x-request') ?? '');
    expect(answers).toEqual(['1', '2', '3', '3', '3']);
  });

  it('fails an unmatched request with REPLAY_UNMATCHED naming it, the file and the nearest recorded request; ctx.http does not retry it', async () => {
    const { har, file } = await record(async (fetch, origin) => {
      await fetch(`${origin}/users?page=1`);
      await fetch(`${origin}/users?page=2`);
      await fetch(`${origin}/groups`);
    });
    const replay = replayFetch(har, { file });
    let calls = 0;
    const counted: typeof globalThis.fetch = (input, init) => {
      calls += 1;
      return replay(input, init);
    };
    const http = createSourceHttp({
      signal: new AbortController().signal,
      logger: silentLogger(),
      fetch: counted,
      minDelayMs: 1,
    });
    const error = await rejection(http.request(`${server.origin}/users?page=3`, { retries: 3 }));
    expect(error).toMatchObject({
      code: 'REPLAY_UNMATCHED',
      retryable: false,
      details: {
        method: 'GET',
        url: `${server.origin}/users?page=3`,
        file,
        nearest: `GET ${server.origin}/users?page=2`,
      },
    });
    expect(error.message).toBe(
      `no recorded answer for GET ${server.origin}/users?page=3 in ${file}; the nearest recorded request is GET ${server.origin}/users?page=2`,
    );
    expect(calls).toBe(1);

    const post = await rejection(replay(`${server.origin}/groups`, { method: 'POST' }));
    expect(post.message).toContain(`the nearest recorded request is GET ${server.origin}/groups`);
  });

  it('says when the method and URL were recorded with another body', async () => {
    const { har, file } = await record((fetch, origin) =>
      fetch(`${origin}/search`, { method: 'POST', body: 'q=a' }),
    );
    const error = await rejection(
      replayFetch(har, { file })(`${server.origin}/search`, { method: 'POST', body: 'q=b' }),
    );
    expect(error.message).toContain(`${file} has POST ${server.origin}/search with another body`);
  });

  it('matches a request carrying a secret once it is scrubbed as the recording was, and never names the secret', async () => {
    const secret = 'query-token-77';
    const scrub = { secrets: [secret], fields: ['password'] };
    const { har, file } = await record(
      (fetch, origin) =>
        fetch(`${origin}/login?token=${secret}`, {
          method: 'POST',
          body: JSON.stringify({ user: 'ada', password: 'pw-1' }),
        }),
      scrub,
    );
    const replay = replayFetch(har, { scrub, file });
    const res = await replay(`${server.origin}/login?token=${secret}`, {
      method: 'POST',
      body: JSON.stringify({ user: 'ada', password: 'pw-1' }),
    });
    expect(res.status).toBe(200);

    const error = await rejection(replay(`${server.origin}/logout?token=${secret}`));
    expect(error.code).toBe('REPLAY_UNMATCHED');
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(secret);
    expect(error.message).toContain(`GET ${server.origin}/logout?token=[scrubbed]`);
  });

  it('fails a request recorded without an answer as fetch does, with a TypeError', async () => {
    server.handle((_req, res) => res.socket?.destroy());
    const { har } = await record((fetch, origin) => fetch(`${origin}/x`).catch(() => undefined));
    const error = await replayFetch(har)(`${server.origin}/x`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(OaaError);
    expect((error as Error).message).toBe('fetch failed');
  });

  it('follows the abort signal of the request', async () => {
    const { har } = await record((fetch, origin) => fetch(`${origin}/x`));
    const controller = new AbortController();
    controller.abort();
    const error = await replayFetch(har)(`${server.origin}/x`, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('readHar', () => {
  it('names a file that does not exist', async () => {
    const file = join(dir, 'missing.har');
    const error = await rejection(readHar(file));
    expect(error).toMatchObject({ code: 'HAR_INVALID', details: { file } });
    expect(error.message).toBe(`${file}: no such HAR file`);
  });

  it('names a file that is not JSON', async () => {
    const file = join(dir, 'text.har');
    await writeFile(file, 'GET /users HTTP/1.1\n');
    const error = await rejection(readHar(file));
    expect(error.code).toBe('HAR_INVALID');
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not JSON`));
  });

  it('names the file and the path of each field that breaks HAR 1.2', async () => {
    const { har } = await record((fetch, origin) => fetch(`${origin}/x`));
    const broken = structuredClone(har) as unknown as {
      log: { entries: { request: Record<string, unknown>; response: Record<string, unknown> }[] };
    };
    broken.log.entries[0]!.response.status = 'ok';
    delete broken.log.entries[0]!.request.url;
    const file = join(dir, 'broken.har');
    await writeFile(file, JSON.stringify(broken));
    const error = await rejection(readHar(file));
    expect(error.code).toBe('HAR_INVALID');
    expect(error.message).toContain(`${file}: not a HAR 1.2 file:`);
    expect(error.message).toContain('log.entries[0].request.url: required');
    expect(error.message).toContain('log.entries[0].response.status: must be a number, not a string');
  });
});
