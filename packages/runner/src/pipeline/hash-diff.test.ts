import { describe, expect, it } from 'vitest';
import type { EntityHash } from '@oaakit/core';
import type { PreviousHashes } from '../state/entity-hashes.js';
import { ownNumber } from '../state/entity-hashes.js';
import { HashDiff } from './hash-diff.js';

const OLD = '0123456789abcdef';
const NEW = 'fedcba9876543210';

function previous(comparable: boolean): PreviousHashes {
  const keys = new Map([
    ['name\u0000ann', ownNumber(OLD)],
    ['name\u0000bo', ownNumber(OLD)],
    ['name\u0000cy', ownNumber(OLD)],
  ]);
  return {
    header: 'h',
    byKind: new Map([['local_users', new Map([['app', keys]])]]),
    labels: new Map(),
    comparable,
  };
}

function user(name: string, own: string): EntityHash {
  return { kind: 'local_users', scope: 'app', key: `name\u0000${name}`, label: name, own };
}

function summarize(comparable: boolean) {
  const diff = new HashDiff(previous(comparable));
  diff.see(user('ann', OLD)); // the same
  diff.see(user('bo', NEW)); // changed (when the hashes can tell)
  diff.see(user('dee', NEW)); // added; cy removed
  return diff.summary({ template: 'application', header: 'h', counts: { local_users: 3 }, payload: {} });
}

describe('HashDiff', () => {
  it('counts added, removed and changed entities against the last push', () => {
    expect(summarize(true)).toMatchObject({
      byKind: { local_users: { added: 1, removed: 1, changed: 1 } },
      removedNames: { local_users: ['cy'] },
    });
  });

  it('counts none as changed against a snapshot whose hashes are not comparable (format v1)', () => {
    expect(summarize(false)).toMatchObject({
      byKind: { local_users: { added: 1, removed: 1, changed: 0 } },
      removedNames: { local_users: ['cy'] },
    });
  });
});
