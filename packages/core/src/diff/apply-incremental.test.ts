import { describe, expect, it } from 'vitest';
import { ValidationError, type Violation } from '../errors.js';
import { applyIncremental } from './apply-incremental.js';
import type { JsonObject } from './json.js';

const current: JsonObject = {
  applications: [
    {
      name: 'crm',
      application_type: 'CRM',
      local_users: [
        {
          name: 'bob',
          is_active: true,
          department: 'sales',
          tags: [
            { key: 'env', value: 'prod' },
            { key: 'env', value: 'dev' },
            { key: 'team', value: 'a' },
          ],
        },
        { name: 'carol' },
      ],
    },
  ],
  permissions: [{ name: 'read', permission_type: ['DataRead'] }],
};

function update(users: JsonObject[], app: JsonObject = { name: 'crm' }): JsonObject {
  return { incremental_change: true, applications: [{ ...app, local_users: users }] };
}

/** The error a user sees, in the two forms they see it: the message and the violations. */
function failure(
  incremental: JsonObject,
  before: JsonObject = current,
): { message: string; violations: Violation[] } {
  try {
    applyIncremental('application', before, incremental);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const { message, violations } = error as ValidationError;
    return { message, violations };
  }
  throw new Error('expected a ValidationError');
}

function usersOf(payload: JsonObject): unknown {
  return (payload.applications as JsonObject[])[0]!.local_users;
}

describe('applyIncremental rejects', () => {
  it('add of an object that exists', () => {
    expect(failure(update([{ name: 'Bob', operation: 'add' }]))).toEqual({
      message:
        "the incremental payload cannot be applied: applications[0].local_users[0].operation: cannot add local user 'bob': it already exists; use operation 'modify' to change it",
      violations: [
        {
          field: 'applications[0].local_users[0].operation',
          description: "cannot add local user 'bob': it already exists; use operation 'modify' to change it",
        },
      ],
    });
  });

  it('modify and delete of objects that do not exist', () => {
    const { violations } = failure(
      update([
        { name: 'dave', operation: 'modify' },
        { name: 'erin', operation: 'delete' },
        { name: 'fay', operation: 'add_tag', tags: [{ key: 'x' }] },
      ]),
    );
    expect(violations).toEqual([
      {
        field: 'applications[0].local_users[0].operation',
        description: "cannot modify local user 'dave': it does not exist; use operation 'add' to create it",
      },
      {
        field: 'applications[0].local_users[1].operation',
        description: "cannot delete local user 'erin': it does not exist",
      },
      {
        field: 'applications[0].local_users[2].operation',
        description: "cannot add_tag on local user 'fay': it does not exist",
      },
    ]);
  });

  it('add and modify of the same object in one payload', () => {
    const { violations, message } = failure(
      update([
        { name: 'dave', operation: 'add' },
        { name: 'Dave', is_active: true, operation: 'modify' },
      ]),
    );
    expect(violations).toEqual([
      {
        field: 'applications[0].local_users[1].operation',
        description:
          "local user 'dave' is both added and modified in this payload (also at applications[0].local_users[0]); add and modify cannot be used on the same object",
      },
    ]);
    expect(message).toContain('add and modify cannot be used on the same object');
  });

  it('one operation twice on one object, and anything besides a delete', () => {
    const { violations } = failure(
      update([
        { name: 'bob', is_active: false, operation: 'modify' },
        { name: 'bob', is_active: true, operation: 'modify' },
        { name: 'carol', operation: 'delete' },
        { name: 'carol', tags: [{ key: 'x' }], operation: 'add_tag' },
      ]),
    );
    expect(violations).toEqual([
      {
        field: 'applications[0].local_users[1].operation',
        description:
          "local user 'bob' has operation 'modify' more than once in this payload (also at applications[0].local_users[0])",
      },
      {
        field: 'applications[0].local_users[3].operation',
        description:
          "local user 'carol' is deleted and also has operation 'add_tag' in this payload (deleted at applications[0].local_users[2])",
      },
    ]);
  });

  it('an unknown or missing operation', () => {
    const { violations } = failure(update([{ name: 'bob', operation: 'upsert' }, { name: 'carol' }]));
    expect(violations).toEqual([
      {
        field: 'applications[0].local_users[0].operation',
        description:
          'unknown operation "upsert": expected one of add, modify, delete, add_tag, remove_tag, delete_tag',
      },
      {
        field: 'applications[0].local_users[1].operation',
        description:
          'operation is required for a local user: one of add, modify, delete, add_tag, remove_tag, delete_tag',
      },
    ]);
  });

  it('an entry without operation for an application that does not exist', () => {
    const { violations } = failure(update([{ name: 'dave', operation: 'add' }], { name: 'erp' }));
    expect(violations).toEqual([
      {
        field: 'applications[0].operation',
        description:
          "application 'erp' does not exist; an entry without operation only carries changes to the entities nested in an existing application",
      },
    ]);
  });

  it('an operation on an entity inside an added application', () => {
    const { violations } = failure({
      incremental_change: true,
      applications: [
        {
          name: 'erp',
          application_type: 'ERP',
          operation: 'add',
          local_users: [{ name: 'x', operation: 'delete' }],
        },
      ],
    });
    expect(violations).toEqual([
      {
        field: 'applications[0].local_users[0].operation',
        description:
          'a local user inside an added application is added with it and takes no operation of its own (found "delete")',
      },
    ]);
  });

  it('a tag operation without tags, and an entry without its key', () => {
    const { violations } = failure(
      update([
        { name: 'bob', operation: 'add_tag' },
        { is_active: true, operation: 'add' },
      ]),
    );
    expect(violations).toEqual([
      {
        field: 'applications[0].local_users[0].tags',
        description: "operation 'add_tag' needs a non-empty tags list",
      },
      {
        field: 'applications[0].local_users[1].name',
        description: 'local user has no id or unique_id or name; it cannot be identified',
      },
    ]);
  });

  it('a payload that is not marked incremental, reporting every problem at once', () => {
    const { message, violations } = failure({
      applications: [{ name: 'crm', local_users: [{ name: 'bob', operation: 'add' }] }],
    });
    expect(violations.map((v) => v.field)).toEqual([
      'incremental_change',
      'applications[0].local_users[0].operation',
    ]);
    expect(message).toBe(
      'the incremental payload cannot be applied: incremental_change: must be true in an incremental payload (and 1 more)',
    );
  });

  it('the hris template', () => {
    try {
      applyIncremental('hris', { name: 'hr', employees: [] }, { incremental_change: true, employees: [] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations).toEqual([
        {
          field: 'incremental_change',
          description: 'incremental updates are not supported for the hris template; push the full payload',
        },
      ]);
    }
  });
});

describe('applyIncremental applies', () => {
  it('modify: sets named fields, clears null ones, keeps the rest, adds tags', () => {
    const result = applyIncremental(
      'application',
      current,
      update([
        {
          name: 'bob',
          is_active: false,
          department: null,
          tags: [{ key: 'x', value: '1' }],
          operation: 'modify',
        },
      ]),
    );
    expect(usersOf(result)).toEqual([
      {
        name: 'bob',
        is_active: false,
        tags: [
          { key: 'env', value: 'prod' },
          { key: 'env', value: 'dev' },
          { key: 'team', value: 'a' },
          { key: 'x', value: '1' },
        ],
      },
      { name: 'carol' },
    ]);
  });

  it('remove_tag and delete_tag: a value removes one pair, no value removes the key', () => {
    const result = applyIncremental(
      'application',
      current,
      update([
        { name: 'bob', tags: [{ key: 'env', value: 'dev' }], operation: 'remove_tag' },
        { name: 'carol', tags: [{ key: 'nothing' }], operation: 'delete_tag' },
      ]),
    );
    expect((usersOf(result) as JsonObject[])[0]!.tags).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'team', value: 'a' },
    ]);
    const again = applyIncremental(
      'application',
      current,
      update([{ name: 'bob', tags: [{ key: 'env' }], operation: 'remove_tag' }]),
    );
    expect((usersOf(again) as JsonObject[])[0]!.tags).toEqual([{ key: 'team', value: 'a' }]);
  });

  it('add_tag together with modify of one object, as the vendor documents', () => {
    const result = applyIncremental(
      'application',
      current,
      update([
        { name: 'carol', tags: [{ key: 'vip' }], operation: 'add_tag' },
        { name: 'carol', is_active: true, operation: 'modify' },
      ]),
    );
    expect((usersOf(result) as JsonObject[])[1]).toEqual({
      name: 'carol',
      tags: [{ key: 'vip', value: '' }],
      is_active: true,
    });
  });

  it('delete, add, and top-level collections, leaving the input untouched', () => {
    const snapshot = structuredClone(current);
    const result = applyIncremental('application', current, {
      incremental_change: true,
      applications: [
        {
          name: 'crm',
          local_users: [
            { name: 'carol', operation: 'delete' },
            { name: 'dave', operation: 'add' },
          ],
        },
      ],
      permissions: [{ name: 'write', permission_type: ['DataWrite'], operation: 'add' }],
    });
    expect(usersOf(result)).toEqual([(usersOf(current) as JsonObject[])[0], { name: 'dave' }]);
    expect(result.permissions).toEqual([
      { name: 'read', permission_type: ['DataRead'] },
      { name: 'write', permission_type: ['DataWrite'] },
    ]);
    expect(result.incremental_change).toBeUndefined();
    expect(current).toEqual(snapshot);
  });
});
