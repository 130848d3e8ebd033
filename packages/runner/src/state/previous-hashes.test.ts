import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityKind } from '@oaakit/core';
import { PreviousHashes, type PreviousEntity } from './previous-hashes.js';

function table(entities: PreviousEntity[]): PreviousHashes {
  const hashes = new PreviousHashes(() => entities);
  for (const e of entities) hashes.add(e.kind, e.scope, e.key, e.own);
  return hashes;
}

function user(i: number, scope = 'app'): PreviousEntity {
  return { kind: 'local_users', scope, key: `name\u0000user${i}`, label: `User${i}`, own: i * 7 };
}

describe('PreviousHashes', () => {
  it('finds each of 50,000 entities once, with its own hash, and counts the rest as missing', async () => {
    const users = Array.from({ length: 50_000 }, (_, i) => user(i));
    const groups: PreviousEntity[] = Array.from({ length: 300 }, (_, i) => ({
      kind: 'local_groups',
      scope: 'app',
      key: `name\u0000g${i}`,
      label: `g${i}`,
      own: i,
    }));
    const hashes = table([...users, ...groups]);
    expect(hashes.size).toBe(50_300);
    // Every user but those divisible by 7 is in the new payload; no group is.
    for (let i = 0; i < 50_000; i++)
      if (i % 7 !== 0) expect(hashes.take('local_users', 'app', `name\u0000user${i}`)).toBe(i * 7);
    expect(hashes.take('local_users', 'app', 'name\u0000user50000')).toBeUndefined();
    expect(hashes.missing()).toEqual(
      new Map<EntityKind, number>([
        ['local_users', Math.ceil(50_000 / 7)],
        ['local_groups', 300],
      ]),
    );
    const names = await hashes.missingNames(100);
    expect(names.get('local_users')).toEqual(Array.from({ length: 100 }, (_, k) => `User${k * 7}`));
    expect(names.get('local_groups')).toHaveLength(100);
  });

  it('tells apart one key in two scopes, and one key of two kinds', () => {
    const hashes = table([
      user(1, 'app-a'),
      user(1, 'app-b'),
      { kind: 'local_groups', scope: 'app-a', key: 'name\u0000user1', label: 'user1', own: 99 },
    ]);
    expect(hashes.take('local_users', 'app-b', 'name\u0000user1')).toBe(7);
    expect(hashes.take('local_groups', 'app-a', 'name\u0000user1')).toBe(99);
    expect(hashes.take('local_users', 'app-c', 'name\u0000user1')).toBeUndefined();
    expect(hashes.missing()).toEqual(new Map([['local_users', 1]]));
  });

  it('finds a key given in two parts, however the parts split it', () => {
    const hashes = table([user(12, 'app'), user(345, 'app'), user(12, 'app-b')]);
    // The prefix `name\0` has an odd length: the two parts are hashed as one text.
    expect(hashes.take('local_users', 'app', 'name\u0000', 'user12')).toBe(84);
    expect(hashes.take('local_users', 'app', 'name\u0000u', 'ser345')).toBe(345 * 7);
    expect(hashes.take('local_users', 'app-b', 'name\u0000user', '12')).toBe(84);
    expect(hashes.take('local_users', 'app', 'name\u0000', 'user13')).toBeUndefined();
    expect(hashes.missing()).toEqual(new Map());
  });

  it('agrees with a map of keys whatever order the new payload reads entities in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.nat(60), { maxLength: 40 }),
        fc.array(fc.nat(70), { maxLength: 50 }),
        async (before, after) => {
          const hashes = table(before.map((i) => user(i)));
          const model = new Map(before.map((i) => [i, i * 7]));
          const taken = new Set<number>();
          for (const i of after) {
            expect(hashes.take('local_users', 'app', 'name\u0000', `user${i}`)).toBe(model.get(i));
            if (model.has(i)) taken.add(i);
          }
          const left = before.filter((i) => !taken.has(i));
          expect(hashes.missing()).toEqual(
            left.length === 0 ? new Map() : new Map([['local_users', left.length]]),
          );
          const names = await hashes.missingNames(100);
          expect(names.get('local_users') ?? []).toEqual(left.map((i) => `User${i}`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts an identity the last push had twice once, and not as removed once taken', async () => {
    const hashes = table([user(1), user(2), { ...user(1), own: 5 }, user(3)]);
    expect(hashes.size).toBe(3);
    expect(hashes.take('local_users', 'app', 'name\u0000user1')).toBe(5);
    expect(hashes.take('local_users', 'app', 'name\u0000user2')).toBe(14);
    expect(hashes.missing()).toEqual(new Map([['local_users', 1]]));
    expect(await hashes.missingNames(10)).toEqual(new Map([['local_users', ['User3']]]));
  });

  it('lists no names and reads nothing again when nothing is missing', async () => {
    let reads = 0;
    const hashes = new PreviousHashes(() => {
      reads++;
      return [];
    });
    hashes.add('local_users', 'app', 'name\u0000ann', 1);
    hashes.take('local_users', 'app', 'name\u0000ann');
    expect(await hashes.missingNames(100)).toEqual(new Map());
    expect(reads).toBe(0);
  });
});
