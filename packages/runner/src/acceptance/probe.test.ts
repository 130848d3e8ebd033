import { streamedKind } from '@oaakit/core';
import { describe, expect, it } from 'vitest';
import { RunProbe } from './probe.js';

async function drain(source: AsyncIterable<unknown> | Iterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe('the probe of streamed collections', () => {
  it('counts a second read of a one-shot generator, even one made through a lazy derived collection', async () => {
    async function* users() {
      for (const name of ['a', 'b']) yield await Promise.resolve({ name });
    }
    const localUsers = users();
    const grants = (async function* () {
      for await (const u of localUsers) yield { identity: u.name };
    })();
    const payload = {
      applications: [{ name: 'app', local_users: localUsers }],
      identity_to_permissions: grants,
    };
    const probe = new RunProbe();
    probe.watchResult(payload);
    expect(streamedKind(localUsers)).toBe('async-iterable');

    expect(await drain(localUsers)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(await drain(grants)).toEqual([]);
    expect(probe.collections).toEqual([
      { path: 'applications[0].local_users', reads: 2, items: 2, oneShot: true, watched: true },
      { path: 'identity_to_permissions', reads: 1, items: 0, oneShot: true, watched: true },
    ]);
    expect(probe.streamedItems).toBe(2);
  });

  it('counts the reads and items of a collection that can be read again, and the first sign of progress', async () => {
    const signs: string[] = [];
    const probe = new RunProbe((sign) => signs.push(sign));
    const groups = new Set(['x', 'y', 'z']);
    probe.watchResult({ local_groups: groups });
    expect([...groups]).toEqual(['x', 'y', 'z']);
    expect(await drain(groups)).toEqual(['x', 'y', 'z']);
    expect(probe.collections).toEqual([
      { path: 'local_groups', reads: 2, items: 6, oneShot: false, watched: true },
    ]);
    expect(signs).toEqual(['a streamed item read']);
  });

  it('lists a frozen collection as not watched, and leaves it as it was', () => {
    const frozen = Object.freeze(new Set([1, 2]));
    const probe = new RunProbe();
    probe.watchResult({ items: frozen });
    expect([...frozen]).toEqual([1, 2]);
    expect(probe.collections).toEqual([
      { path: 'items', reads: 0, items: 0, oneShot: false, watched: false },
    ]);
  });
});
