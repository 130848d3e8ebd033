import { describe, expect, it } from 'vitest';
import type { EntityHash } from '@oaakit/core';
import { PreviousHashes, type PreviousEntity } from '../state/previous-hashes.js';
import { HashDiff } from './hash-diff.js';

const OLD = 0x0123456789abc;
const NEW = 0xfedcba9876543;

function previous(): PreviousHashes {
  const entities: PreviousEntity[] = ['ann', 'bo', 'cy'].map((name) => ({
    kind: 'local_users',
    scope: 'app',
    key: `name\u0000${name}`,
    label: name,
    own: OLD,
  }));
  const hashes = new PreviousHashes(() => entities);
  for (const e of entities) hashes.add(e.kind, e.scope, e.key, e.own);
  hashes.header = 'h';
  return hashes;
}

function user(name: string, own: number): EntityHash {
  return {
    kind: 'local_users',
    scope: 'app',
    keyPrefix: 'name\u0000',
    keyValue: name,
    name: undefined,
    own,
  };
}

async function summarize() {
  const diff = new HashDiff(previous());
  diff.compare(user('ann', OLD)); // the same
  diff.compare(user('bo', NEW)); // changed
  diff.compare(user('dee', NEW)); // added; cy removed
  return diff.summary({ template: 'application', header: 'h', counts: { local_users: 3 }, payload: {} });
}

describe('HashDiff', () => {
  it('counts added, removed and changed entities against the last push', async () => {
    expect(await summarize()).toMatchObject({
      byKind: { local_users: { added: 1, removed: 1, changed: 1 } },
      removedNames: { local_users: ['cy'] },
    });
  });
});
