import { describe, expect, it } from 'vitest';
import { ENTERPRISE_USER, readGroup, readUser } from './scim-resources.js';

// SCIMMY always answers in its canonical form; these are shapes other real services send.
describe('reading SCIM resources from less tidy services', () => {
  it('accepts attribute names in any case, string booleans and plain-string values', () => {
    expect(
      readUser({
        ID: 'u1',
        UserName: 'ann',
        Active: 'False',
        Emails: [{ Value: 'ANN@example.com' }, { value: 'ann@example.com', Primary: 'true' }],
        roles: ['Admin', 'admin'],
        [ENTERPRISE_USER.toUpperCase()]: { manager: 'u9', department: '' },
      }),
    ).toEqual({
      id: 'u1',
      userName: 'ann',
      active: false,
      emails: ['ann@example.com'],
      roles: ['Admin'],
      entitlements: [],
      groupIds: [],
      managerId: 'u9',
    });
  });

  it('takes direct groups from the user and infers member types from $ref', () => {
    expect(
      readUser({
        id: 'u1',
        groups: [
          { value: 'g1', type: 'direct' },
          { value: 'g0', type: 'indirect' },
        ],
      }).groupIds,
    ).toEqual(['g1']);
    expect(
      readGroup({
        id: 'g1',
        members: [
          { value: 'x', $ref: 'https://h/scim/v2/Groups/x' },
          { value: 'y', $ref: '../Users/y' },
          { value: 'z' },
        ],
      }),
    ).toEqual({
      id: 'g1',
      displayName: 'g1',
      members: [{ value: 'x', type: 'Group' }, { value: 'y', type: 'User' }, { value: 'z' }],
    });
  });

  it('refuses a resource without an id', () => {
    expect(() => readUser({ userName: 'x' })).toThrow(expect.objectContaining({ code: 'SCIM_BAD_RESPONSE' }));
  });
});
