/**
 * Recording a source through `recordingFetch` against a real HTTP server: what the file keeps, what
 * it never holds (the byte search of the written file is what a user would do), and that the caller
 * gets the answers as the server sent them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSourceServer } from '../private-test-helpers/source-server.js';
import type { SourceServer } from '../private-test-helpers/source-server.js';
import { readHar } from './read-har.js';
import { HarRecorder } from './recorder.js';
import { recordingFetch } from './recording-fetch.js';
import { SCRUBBED } from './scrub.js';
import type { HarEntry, HarNameValue } from './types.js';

/** A secret whose raw, JSON-escaped, URL-encoded, base64 and base64url forms all differ. */
const SECRET = 'tok"+/?=&é~s3cr3t>>?';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const FORMS = {
  raw: SECRET,
  json: JSON.stringify(SECRET).slice(1, -1),
  uri: encodeURIComponent(SECRET),
  form: new URLSearchParams({ s: SECRET }).toString().slice(2),
  base64: b64(SECRET),
  base64url: b64url(SECRET),
  basicAuth: b64(`reader:${SECRET}`),
};

let server: SourceServer;
let dir: string;
beforeEach(async () => {
  server = await startSourceServer();
  dir = await mkdtemp(join(tmpdir(), 'oaa-har-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Writes the recorder's file and returns its bytes and the HAR read back. */
async function written(recorder: HarRecorder): Promise<{ bytes: Buffer; entries: HarEntry[] }> {
  const file = join(dir, 'source.har');
  await recorder.write(file);
  return { bytes: await readFile(file), entries: (await readHar(file)).log.entries };
}

const header = (list: HarNameValue[], name: string): string | undefined =>
  list.find((h) => h.name === name)?.value;

describe('a recording of a source', () => {
  it('holds no form of a secret: not in a header, a query parameter, a JSON or form body, nor an answer', async () => {
    // The precondition of the test: every form is its own string.
    expect(new Set(Object.values(FORMS)).size).toBe(Object.keys(FORMS).length);
    const answer = { echo: SECRET, b64: FORMS.base64, b64url: FORMS.base64url, uri: FORMS.uri };
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': FORMS.base64 });
      res.end(JSON.stringify(answer));
    });
    const recorder = new HarRecorder({ scrub: { secrets: [SECRET] } });
    const fetch = recordingFetch(globalThis.fetch, recorder);

    const res = await fetch(`${server.origin}/v1/items?key=${FORMS.uri}&page=2`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': SECRET,
        'x-basic': `Basic ${FORMS.basicAuth}`,
      },
      body: JSON.stringify({ token: SECRET, nested: { b64: FORMS.base64url }, page: 2 }),
    });
    // The caller reads the answer the server sent, secret and all.
    expect(await res.json()).toEqual(answer);
    await fetch(`${server.origin}/v1/token`, {
      method: 'POST',
      body: new URLSearchParams({ secret: SECRET }),
    });

    const { bytes, entries } = await written(recorder);
    for (const [name, form] of Object.entries(FORMS)) {
      expect(bytes.includes(Buffer.from(form, 'utf8')), `the ${name} form of the secret`).toBe(false);
    }
    expect(bytes.includes('s3cr3t')).toBe(false);
    // What is not secret stays, so the recording can still be read and replayed.
    const [items, token] = entries as [HarEntry, HarEntry];
    expect(items.request.url).toBe(`${server.origin}/v1/items?key=${SCRUBBED}&page=2`);
    expect(items.request.queryString).toEqual([
      { name: 'key', value: SCRUBBED },
      { name: 'page', value: '2' },
    ]);
    expect(JSON.parse(items.request.postData?.text ?? '')).toEqual({
      token: SCRUBBED,
      nested: { b64: SCRUBBED },
      page: 2,
    });
    expect(header(items.request.headers, 'x-api-key')).toBe(SCRUBBED);
    expect(JSON.parse(items.response.content.text ?? '')).toEqual({
      echo: SCRUBBED,
      b64: SCRUBBED,
      b64url: SCRUBBED,
      uri: SCRUBBED,
    });
    expect(header(items.response.headers, 'x-echo')).toBe(SCRUBBED);
    expect(token.request.postData).toMatchObject({
      mimeType: 'application/x-www-form-urlencoded;charset=UTF-8',
      text: `secret=${SCRUBBED}`,
    });
  });

  it('scrubs authorization, proxy-authorization, cookie and set-cookie values, declared or not', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'sid=server-cookie-3; HttpOnly' });
      res.end('ok');
    });
    const recorder = new HarRecorder();
    const res = await recordingFetch(globalThis.fetch, recorder)(`${server.origin}/me`, {
      headers: {
        authorization: 'Bearer undeclared-token-1',
        'proxy-authorization': 'Basic cHJveHk6cGFzcw==',
        cookie: 'sid=client-cookie-2',
        accept: 'text/plain',
      },
    });
    expect(res.headers.get('set-cookie')).toBe('sid=server-cookie-3; HttpOnly');

    const { bytes, entries } = await written(recorder);
    const [entry] = entries as [HarEntry];
    for (const name of ['authorization', 'proxy-authorization', 'cookie'])
      expect(header(entry.request.headers, name), name).toBe(SCRUBBED);
    expect(header(entry.request.headers, 'accept')).toBe('text/plain');
    expect(header(entry.response.headers, 'set-cookie')).toBe(SCRUBBED);
    for (const value of ['undeclared-token-1', 'cHJveHk6cGFzcw', 'client-cookie-2', 'server-cookie-3'])
      expect(bytes.includes(value), value).toBe(false);
  });

  it('replaces the values of configured fields: JSON fields at any depth, query and form parameters, headers', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access: { password: 'answer-pw-4', expires: 3600 } }));
    });
    const recorder = new HarRecorder({ scrub: { fields: ['password', 'client_secret', 'X-Session'] } });
    const fetch = recordingFetch(globalThis.fetch, recorder);
    await fetch(`${server.origin}/login?client_secret=query-cs-1&tenant=t1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session': 'session-5' },
      body: JSON.stringify({ user: { name: 'ada', password: 'body-pw-2' } }),
    });
    await fetch(`${server.origin}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_secret: 'form-cs-3' }),
    });

    const { bytes, entries } = await written(recorder);
    for (const value of ['query-cs-1', 'body-pw-2', 'form-cs-3', 'answer-pw-4', 'session-5'])
      expect(bytes.includes(value), value).toBe(false);
    const [login, token] = entries as [HarEntry, HarEntry];
    expect(login.request.url).toBe(`${server.origin}/login?client_secret=${SCRUBBED}&tenant=t1`);
    expect(JSON.parse(login.request.postData?.text ?? '')).toEqual({
      user: { name: 'ada', password: SCRUBBED },
    });
    expect(header(login.request.headers, 'x-session')).toBe(SCRUBBED);
    expect(JSON.parse(login.response.content.text ?? '')).toEqual({
      access: { password: SCRUBBED, expires: 3600 },
    });
    expect(token.request.postData?.text).toBe(`grant_type=client_credentials&client_secret=${SCRUBBED}`);
  });

  it('hands the caller the answer intact: bytes, status, headers and the URL after a redirect', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    server.handle((req, res) => {
      if (req.url === '/old') {
        res.writeHead(302, { location: '/new' });
        res.end();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/octet-stream', 'x-page': '7' });
      res.end(bytes);
    });
    const recorder = new HarRecorder();
    const res = await recordingFetch(globalThis.fetch, recorder)(`${server.origin}/old`);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-page')).toBe('7');
    expect(res.url).toBe(`${server.origin}/new`);
    expect(res.redirected).toBe(true);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);

    const [entry] = (await written(recorder)).entries as [HarEntry];
    expect(entry.request.url).toBe(`${server.origin}/old`);
    expect(entry.response).toMatchObject({
      status: 201,
      redirectURL: `${server.origin}/new`,
      content: { size: 256, mimeType: 'application/octet-stream', encoding: 'base64' },
    });
    expect(Buffer.from(entry.response.content.text ?? '', 'base64')).toEqual(bytes);
  });

  it('records a request that got no answer with status 0 and its error, and throws that error', async () => {
    // The server hangs up without answering.
    server.handle((_req, res) => res.socket?.destroy());
    const recorder = new HarRecorder();
    const error = await recordingFetch(
      globalThis.fetch,
      recorder,
    )(`${server.origin}/gone`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    const [entry] = (await written(recorder)).entries as [HarEntry];
    expect(entry.response.status).toBe(0);
    expect(entry.response._error).toMatch(/^fetch failed: /);
  });

  it('writes a HAR 1.2 file as pretty JSON, created by oaakit and its version, with stable times when asked', async () => {
    const recorder = new HarRecorder({ stableTimes: true });
    await recordingFetch(globalThis.fetch, recorder)(`${server.origin}/a`);
    recorder.comment = 'run of connector "a": succeeded (dry-run)';
    const file = join(dir, 'a.har');
    await recorder.write(file);
    const text = await readFile(file, 'utf8');
    expect(text.startsWith('{\n  "log": {\n')).toBe(true);
    const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
    const har = await readHar(file);
    expect(har.log).toMatchObject({
      version: '1.2',
      creator: { name: 'oaakit', version },
      comment: 'run of connector "a": succeeded (dry-run)',
    });
    const [entry] = har.log.entries as [HarEntry];
    expect(entry).toMatchObject({
      startedDateTime: '1970-01-01T00:00:00.000Z',
      time: 0,
      timings: { send: 0, wait: 0, receive: 0 },
    });
    expect(header(entry.response.headers, 'date')).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
  });
});
