import { describe, expect, it } from 'vitest';
import { materialize } from './materialize.js';

describe('materialize', () => {
  it('drains iterables and async iterables at any depth, in place', async () => {
    async function* users() {
      await Promise.resolve();
      yield { name: 'a', groups: new Set(['g']) };
      yield { name: 'b', groups: [] };
    }
    const payload = {
      applications: [{ name: 'x', local_users: users(), tags: [] }],
      permissions: new Set([{ name: 'p' }]),
    };
    let items = 0;
    const out = await materialize(payload, { onItem: () => items++ });
    expect(out).toBe(payload);
    expect(out).toEqual({
      applications: [
        {
          name: 'x',
          local_users: [
            { name: 'a', groups: ['g'] },
            { name: 'b', groups: [] },
          ],
          tags: [],
        },
      ],
      permissions: [{ name: 'p' }],
    });
    expect(items).toBe(4);
  });

  it('leaves strings, dates and plain payloads as they are', async () => {
    const at = new Date(0);
    const payload = { name: 'abc', at, list: [1, 'two', null] };
    expect(await materialize(payload)).toEqual({ name: 'abc', at, list: [1, 'two', null] });
  });

  it('leaves what the serializer writes as a record or a string, though iterable', async () => {
    const record = {
      note: 'a record',
      *[Symbol.iterator]() {
        yield 1;
      },
    };
    const boxed = new String('ab');
    const payload = { record, boxed, list: [record, boxed] };
    const out = (await materialize(payload)) as typeof payload;
    expect(out.record).toBe(record);
    expect(out.boxed).toBe(boxed);
    expect(out.list).toEqual([record, boxed]);
    expect(JSON.stringify(out)).toBe(
      '{"record":{"note":"a record"},"boxed":"ab","list":[{"note":"a record"},"ab"]}',
    );
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    async function* endless() {
      for (let i = 0; ; i++) {
        await Promise.resolve();
        if (i === 2000) controller.abort();
        yield { i };
      }
    }
    await expect(materialize({ users: endless() }, { signal: controller.signal })).rejects.toThrow();
  });
});
