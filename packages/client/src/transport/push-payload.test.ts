import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../client.js';
import { appPayload, randomUsers } from '../private-test-helpers/payloads.js';
import type { LocalUserLike } from '../private-test-helpers/payloads.js';
import { startClientTestEmulator } from '../private-test-helpers/emulator.js';
import type { ClientTestEmulator } from '../private-test-helpers/emulator.js';
import { rawBytesPerBody } from './push-payload.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

async function target(client: Client): Promise<{ providerId: string; dataSourceId: string }> {
  const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
  const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'prod' });
  return { providerId: provider.id, dataSourceId: dataSource.id };
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const u of items) {
    await Promise.resolve();
    yield u;
  }
}

const SMALL_BODY = 64 * 1024;

describe('pushPayload', () => {
  it('pushes a small payload in one gzip request and the data source reports SUCCESS', async () => {
    const client = emu.client();
    const ref = await target(client);
    const result = await client.pushPayload({ ...ref, payload: appPayload(randomUsers(10)) });
    expect(result).toMatchObject({ mode: 'single', chunks: 1, warnings: [] });
    expect(result.jsonBytes).toBeGreaterThan(result.compressedBytes);
    expect((await client.dataSources.get(ref)).status).toBe('SUCCESS');
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(10);
  });

  it('returns the warnings the service gives', async () => {
    const client = emu.client();
    const ref = await target(client);
    const payload = appPayload([{ name: 'ann', groups: ['staff'] }]);
    (payload['applications'] as Record<string, unknown>[])[0]!['local_roles'] = [
      { name: 'viewer', permissions: ['View'] },
      { name: 'empty' },
    ];
    const { warnings } = await client.pushPayload({ ...ref, payload });
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/Role is missing permission/);
  });

  it('switches to multipart above the body limit, streaming from an async iterable, and every entity arrives', async () => {
    const client = emu.client();
    const ref = await target(client);
    const users = randomUsers(4000);
    const result = await client.pushPayload({
      ...ref,
      payload: appPayload(slowly(users)),
      maxBodyBytes: SMALL_BODY,
      concurrency: 2,
    });
    expect(result.mode).toBe('multipart');
    expect(result.chunks).toBe(Math.ceil(result.compressedBytes / rawBytesPerBody(SMALL_BODY)));
    expect(result.chunks).toBeGreaterThan(2);
    const uploads = (await emu.admin.calls.list({ method: 'POST' })).filter((c) => c.path.endsWith(':parts'));
    expect(uploads).toHaveLength(result.chunks + 2);
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(4000);
  });

  it('pushes gzip compressed in members on worker threads, and multi-member gzip arrives whole', async () => {
    const client = emu.client();
    const ref = await target(client);
    const users = randomUsers(4000);
    const single = await client.pushPayload({ ...ref, payload: appPayload(users), gzipWorkers: 2 });
    expect(single.mode).toBe('single');
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(4000);
    // Three members cut at arbitrary bytes, as the workers cut them, through multipart.
    const json = Buffer.from(JSON.stringify(appPayload(users.slice(0, 3000))));
    const cuts = [0, 1000, Math.floor(json.length / 2), json.length];
    const members = cuts.slice(1).map((end, i) => gzipSync(json.subarray(cuts[i], end)));
    const parts = await client.pushPayload({
      ...ref,
      stream: slowly(members),
      maxBodyBytes: SMALL_BODY,
    });
    expect(parts.mode).toBe('multipart');
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(3000);
  });

  it('sends uncompressed payloads escaped in one push, or as raw JSON slices in multipart', async () => {
    const client = emu.client();
    const ref = await target(client);
    const small = await client.pushPayload({
      ...ref,
      payload: appPayload([{ name: 'zoë "z" ✓', groups: ['staff'] }]),
      compression: 'none',
    });
    expect(small).toMatchObject({ mode: 'single', warnings: [] });
    expect(small.compressedBytes).toBe(small.jsonBytes);
    const big = await client.pushPayload({
      ...ref,
      payload: appPayload(randomUsers(2000)),
      compression: 'none',
      maxBodyBytes: SMALL_BODY,
    });
    expect(big).toMatchObject({ mode: 'multipart', warnings: [] });
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(2000);
  });

  it('retries multipart calls on their own when they meet a 503 or a dropped connection', async () => {
    const client = emu.client();
    const ref = await target(client);
    await emu.admin.faults.add({ method: 'POST', path: '*:parts', status: 503, count: 2 });
    await emu.admin.faults.add({ method: 'POST', path: '*:parts', drop: true, count: 2 });
    const result = await client.pushPayload({
      ...ref,
      payload: appPayload(randomUsers(2000)),
      maxBodyBytes: SMALL_BODY,
    });
    expect(result.mode).toBe('multipart');
    expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(2000);
  });

  it('fails clearly, with hints, when a payload needs more than 99 chunks', async () => {
    const client = emu.client();
    const ref = await target(client);
    const error = await client
      .pushPayload({ ...ref, payload: appPayload(randomUsers(20_000)), maxBodyBytes: 4096 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((error as { hints: string[] }).hints.join(' ')).toMatch(/several data sources/);
  });

  it('stops when the caller aborts', async () => {
    const client = emu.client();
    const ref = await target(client);
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.pushPayload({ ...ref, payload: appPayload(randomUsers(5)), signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect((await client.dataSources.get(ref)).status).not.toBe('SUCCESS');
  });

  it('accepts gzip bytes that were serialized elsewhere', async () => {
    const client = emu.client();
    const ref = await target(client);
    const gz = gzipSync(JSON.stringify(appPayload(randomUsers(5))));
    const result = await client.pushPayload({
      ...ref,
      stream: [gz.subarray(0, 10), gz.subarray(10)].values() as unknown as AsyncIterable<Uint8Array>,
    });
    expect(result).toMatchObject({ mode: 'single', jsonBytes: undefined, compressedBytes: gz.length });
  });

  describe('with validate', () => {
    const bad = (users: LocalUserLike[], at: number): LocalUserLike[] =>
      users.map((u, i) => (i === at ? { ...u, groups: ['nobody'] } : u));

    it('pushes a valid payload, reading the async users once, and returns the local warnings', async () => {
      const client = emu.client();
      const ref = await target(client);
      const payload = appPayload(slowly(randomUsers(50)));
      (payload['applications'] as Record<string, unknown>[])[0]!['local_roles'] = [
        { name: 'viewer', permissions: ['View'] },
        { name: 'empty' },
      ];
      const result = await client.pushPayload({ ...ref, payload, validate: { template: 'application' } });
      expect(result.mode).toBe('single');
      expect(result.validationWarnings?.map((w) => w.description).join()).toMatch(
        /Role is missing permission/,
      );
      expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(50);
    });

    it('never sends a single push of an invalid payload', async () => {
      const client = emu.client();
      const ref = await target(client);
      const push = client.pushPayload({
        ...ref,
        payload: appPayload(slowly(bad(randomUsers(20), 19))),
        validate: { template: 'application' },
      });
      await expect(push).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        violations: [{ field: 'applications[0].local_users[19].groups[0]' }],
      });
      const calls = await emu.admin.calls.list({ method: 'POST' });
      expect(calls.filter((c) => c.path.endsWith(':push') || c.path.endsWith(':parts'))).toEqual([]);
    });

    it('never completes a multipart upload of an invalid payload, and the last push stays', async () => {
      // The bad user is read only once a part has been uploaded: the upload is under way, whatever
      // the machine's load, when validation fails.
      let partUploaded!: () => void;
      const uploaded = new Promise<void>((resolve) => (partUploaded = resolve));
      const client = emu.client({
        fetch: async (input, init) => {
          const response = await globalThis.fetch(input, init);
          // Only chunk uploads stream their body; start and complete send a string.
          const upload = init?.body !== undefined && typeof init.body !== 'string';
          if (response.url.endsWith(':parts') && upload && response.ok) partUploaded();
          return response;
        },
      });
      const ref = await target(client);
      await client.pushPayload({ ...ref, payload: appPayload(randomUsers(3)) });
      async function* badAfterAnUpload(): AsyncGenerator<LocalUserLike> {
        const users = randomUsers(30_000);
        for (const [i, user] of users.entries()) {
          if (i === users.length - 1) {
            await uploaded;
            yield { ...user, groups: ['nobody'] };
          } else yield user;
        }
      }
      const push = client.pushPayload({
        ...ref,
        payload: appPayload(badAfterAnUpload()),
        maxBodyBytes: SMALL_BODY,
        validate: { template: 'application' },
      });
      await expect(push).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      const parts = (await emu.admin.calls.list({ method: 'POST' })).filter((c) => c.path.endsWith(':parts'));
      // start and at least one upload went out; complete never did.
      expect(parts.length).toBeGreaterThan(1);
      expect(await emu.nodes(ref, 'OAA.Wiki.User')).toBe(3);
    });
  });
});
