/**
 * `source` besides auth: the rate limit's schedule (on an injected clock, so nothing waits), the
 * concurrency cap, the per-request timeout against a source that never answers, and the headers a
 * request carries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimit } from './engine/rate-limit.js';
import { readAll, serve, userManifest, type Source } from './private-test-helpers/source.js';

let source: Source | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

describe('the rate limit', () => {
  it('starts requests 1/requests_per_second apart', async () => {
    let now = 1000;
    const waits: number[] = [];
    const limit = new RateLimit({
      requestsPerSecond: 4,
      now: () => now,
      wait: (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    });
    const signal = new AbortController().signal;
    const started: number[] = [];
    for (let i = 0; i < 4; i++) await limit.run(signal, () => Promise.resolve(started.push(now)));
    expect(started).toEqual([1000, 1250, 1500, 1750]);
    expect(waits).toEqual([250, 250, 250]);
    // After a pause longer than the interval, the next request starts at once.
    now += 1000;
    await limit.run(signal, () => Promise.resolve(started.push(now)));
    expect(started.at(-1)).toBe(2750);
    expect(waits).toHaveLength(3);
  });

  it('keeps at most max_concurrency requests in flight', async () => {
    const limit = new RateLimit({ maxConcurrency: 2 });
    const signal = new AbortController().signal;
    const gates: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const task = () =>
      limit.run(signal, async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running -= 1;
      });
    const all = Promise.all([task(), task(), task(), task(), task()]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gates).toHaveLength(2);
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    expect(most).toBe(2);
  });
});

describe('max_concurrency from a var', () => {
  const fanOut = `version: 1
id: capped
vars:
  url: { description: the source }
  max_concurrency: { description: requests at once, type: integer }
source:
  base_url: '{{ vars.url }}'
  rate_limit:
    max_concurrency: '{{ vars.max_concurrency }}'
streams:
  projects: { path: /projects.json, records: projects }
  items:
    for_each: projects
    concurrency: 4
    path: /projects/{{ record.id }}/members.json
    records: members
payload:
  template: application
  application: '{ "name": "T", "application_type": "T" }'
  local_users: { stream: items, map: '{ "name": name }' }
`;
  const projects = Array.from({ length: 6 }, (_, i) => ({ id: i + 1 }));

  it('caps the requests in flight at the value the config gives', async () => {
    let inFlight = 0;
    let most = 0;
    source = await serve(async (req) => {
      if (req.path === '/projects.json') return { json: { projects } };
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Each answer takes a while, so that uncapped requests would overlap.
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      return { json: { members: [{ name: req.path }] } };
    });
    const records = await readAll(fanOut, 'items', { url: source.url, max_concurrency: 1 });
    expect(records).toHaveLength(projects.length);
    expect(most).toBe(1);
  });

  it('fails naming the path and line when the value is not a whole number of at least 1', async () => {
    source = await serve(() => ({ json: { projects } }));
    await expect(readAll(fanOut, 'items', { url: source.url, max_concurrency: 0 })).rejects.toMatchObject({
      code: 'REST_MAPPING_FAILED',
      message: expect.stringMatching(
        /test\.yaml:9:\d+: source\.rate_limit\.max_concurrency: must be a whole number of at least 1, not 0/,
      ),
    });
  });
});

describe('requests', () => {
  it('carry the source headers, the stream headers over them, and accept JSON by default', async () => {
    source = await serve(() => ({ json: [{ name: 'a' }] }));
    const text = userManifest(
      `  items:
    path: /people
    headers: { x-tenant: '{{ vars.url }}', x-app: stream }`,
    ).replace(
      "  base_url: '{{ vars.url }}'",
      "  base_url: '{{ vars.url }}'\n  headers: { x-app: source, user-agent: oaakit-test }",
    );
    await readAll(text, 'items', { url: source.url });
    expect(source.requests[0]?.headers).toMatchObject({
      accept: 'application/json',
      'x-app': 'stream',
      'user-agent': 'oaakit-test',
      'x-tenant': source.url,
    });
  });

  it('give up on a source that does not answer within timeout_ms', async () => {
    source = await serve(() => new Promise(() => undefined));
    const text = userManifest('  items:\n    path: /people').replace(
      "  base_url: '{{ vars.url }}'",
      "  base_url: '{{ vars.url }}'\n  timeout_ms: 200\n  retries: 0",
    );
    await expect(readAll(text, 'items', { url: source.url })).rejects.toMatchObject({
      code: 'SOURCE_NETWORK_ERROR',
      message: expect.stringContaining(`GET ${source.url}/people failed`),
    });
  });
});
