/**
 * The diff and incremental payloads key local identities as the service does (`id`, else
 * `unique_id`, else `name`), access credentials included, so SDK-built payloads diff by their ids.
 */
import { describe, expect, it } from 'vitest';
import { sdkFixture } from '../private-test-helpers/fixtures.js';
import { validate } from '../validate/index.js';
import { buildIncrementalPayload } from './build-incremental.js';
import { diffPayloads } from '../private-test-helpers/diff-payloads.js';
import type { JsonObject } from './json.js';

const app0 = (p: JsonObject) => (p.applications as JsonObject[])[0]!;

describe('diffs of SDK-built payloads', () => {
  it('a renamed access credential with the same id is changed, not removed and added', () => {
    const before = sdkFixture<JsonObject>('application');
    const after = sdkFixture<JsonObject>('application');
    (app0(after).local_access_creds as JsonObject[])[0]!.name = 'Cred One (rotated)';
    const diff = diffPayloads('application', before, after);
    expect(diff.counts.local_access_creds).toEqual({ added: 0, removed: 0, changed: 1 });
    expect(diff.byKind.local_access_creds.changed[0]).toMatchObject({
      key: 'cred1',
      name: 'Cred One (rotated)',
    });
  });
  it('users with one name and two ids are two users', () => {
    const before = sdkFixture<JsonObject>('application');
    const after = sdkFixture<JsonObject>('application');
    app0(before).local_users = [{ name: 'Bob', id: 'u-1' }];
    app0(after).local_users = [
      { name: 'Bob', id: 'u-1' },
      { name: 'Bob', id: 'u-2' },
    ];
    const diff = diffPayloads('application', before, after);
    expect(diff.counts.local_users).toEqual({ added: 1, removed: 0, changed: 0 });
    expect(diff.byKind.local_users.added[0]!.key).toBe('u-2');
  });
  it('an incremental payload deletes an access credential by its id, and validates', () => {
    const before = sdkFixture<JsonObject>('application');
    const after = sdkFixture<JsonObject>('application');
    app0(after).local_access_creds = [];
    app0(after).local_users = [{ ...(app0(after).local_users as JsonObject[])[0]!, access_creds: [] }];
    after.identity_to_permissions = (after.identity_to_permissions as JsonObject[]).slice(0, 3);
    const incremental = buildIncrementalPayload('application', before, after);
    const app = app0(incremental);
    expect(app.local_access_creds).toEqual([{ id: 'cred1', name: 'Cred One', operation: 'delete' }]);
    expect(incremental.identity_to_permissions).toEqual([
      { identity: 'cred1', identity_type: 'local_access_creds', operation: 'delete' },
    ]);
    expect(validate('application', incremental).errors).toEqual([]);
  });
});
