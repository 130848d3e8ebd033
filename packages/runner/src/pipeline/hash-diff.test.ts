import { describe, expect, it } from 'vitest';
import type { EntityHash } from '@oaakit/core';
import { ownNumber } from '../state/entity-hashes.js';
import { PreviousHashes, type PreviousEntity } from '../state/previous-hashes.js';
import { HashDiff } from './hash-diff.js';

const OLD = '0123456789abcdef';
const NEW = 'fedcba9876543210';

function previous(comparable: boolean): PreviousHashes {
  const entities: PreviousEntity[] = ['ann', 'bo', 'cy'].map((name) => ({
    kind: 'local_users',
    scope: 'app',
    key: `name\u0000${name}`,
    label: name,
    own: ownNumber(OLD),
  }));
  const hashes = new PreviousHashes(() => entities);
  for (const e of entities) hashes.add(e.kind, e.scope, e.key, e.own);
  hashes.header = 'h';
  hashes.comparable = comparable;
  return hashes;
}

function user(name: string, own: string): EntityHash {
  return {
    kind: 'local_users',
    scope: 'app',
    keyPrefix: 'name\u0000',
    keyValue: name,
    name: undefined,
    ownHigh: parseInt(own.slice(0, 8), 16),
    ownLow: parseInt(own.slice(8), 16),
  };
}

async function summarize(comparable: boolean) {
  const diff = new HashDiff(previous(comparable));
  diff.compare(user('ann', OLD)); // the same
  diff.compare(user('bo', NEW)); // changed (when the hashes can tell)
  diff.compare(user('dee', NEW)); // added; cy removed
  return diff.summary({ template: 'application', header: 'h', counts: { local_users: 3 }, payload: {} });
}

describe('HashDiff', () => {
  it('counts added, removed and changed entities against the last push', async () => {
    expect(await summarize(true)).toMatchObject({
      byKind: { local_users: { added: 1, removed: 1, changed: 1 } },
      removedNames: { local_users: ['cy'] },
    });
  });

  it('counts none as changed against a snapshot whose hashes are not comparable (format v1)', async () => {
    expect(await summarize(false)).toMatchObject({
      byKind: { local_users: { added: 1, removed: 1, changed: 0 } },
      removedNames: { local_users: ['cy'] },
    });
  });
});
