import { describe, expect, it } from 'vitest';
import { validate } from './index.js';
import { expectOnly, fixture } from '../private-test-helpers/fixtures.js';
import type { Violation } from '../errors.js';

const app = () => fixture('application');
const wiki = (p: any) => p.applications[0];

/** The violations at `field`, for assertions that name the path a user would look at. */
const at = (list: Violation[], field: string) => list.filter((v) => v.field === field);

describe('the fixtures are valid', () => {
  it.each([
    ['application', 'application'],
    ['identity_provider', 'identity-provider'],
    ['hris', 'hris'],
  ] as const)('%s', (template, file) => {
    const result = validate(template, fixture(file));
    expect(result.errors).toEqual([]);
  });
});

describe('strings', () => {
  it('accepts 256 bytes of UTF-8 and rejects 258', () => {
    const p = app();
    wiki(p).local_users[1].name = 'é'.repeat(128);
    expect(validate('application', p).errors).toEqual([]);
    wiki(p).local_users[1].name = 'é'.repeat(129);
    expectOnly(validate('application', p).errors, 'applications[0].local_users[1].name', /at most 256 bytes/);
  });
  it('rejects text that is not valid UTF-8 (a lone surrogate)', () => {
    const p = app();
    wiki(p).local_users[1].name = 'bad\ud800';
    expectOnly(validate('application', p).errors, 'applications[0].local_users[1].name', /valid UTF-8/);
  });
  it('limits an application description to 256 characters and a resource description to 255', () => {
    const p = app();
    wiki(p).description = 'd'.repeat(256);
    wiki(p).resources[0].description = 'd'.repeat(255);
    expect(validate('application', p).errors).toEqual([]);
    wiki(p).description = 'd'.repeat(257);
    wiki(p).resources[0].description = 'd'.repeat(256);
    const { errors } = validate('application', p);
    expect(at(errors, 'applications[0].description')[0]?.description).toMatch(/256 bytes|256 characters/);
    expect(at(errors, 'applications[0].resources[0].description')[0]?.description).toMatch(
      /at most 255 characters/,
    );
  });
});

describe('enums', () => {
  it('rejects an unknown template', () => {
    expectOnly(
      validate('files' as never, {}).errors,
      '',
      /unknown template "files"; allowed: application, identity_provider, hris/,
    );
  });
  it('rejects an unknown permission type and names the allowed ones', () => {
    const p = app();
    p.permissions[1].permission_type = ['DataWrite', 'Write'];
    expectOnly(
      validate('application', p).errors,
      'permissions[1].permission_type[1]',
      /must be one of: DataRead, DataWrite,.*Uncategorized; got "Write"/,
    );
  });
  it('rejects an unknown identity type', () => {
    const p = app();
    p.identity_to_permissions[0].identity_type = 'user';
    expectOnly(
      validate('application', p).errors,
      'identity_to_permissions[0].identity_type',
      /local_user, local_group, idp/,
    );
  });
  it('rejects an unknown custom property type', () => {
    const p = app();
    p.custom_property_definition.applications[0].local_user_properties.seats = 'INTEGER';
    expectOnly(
      validate('application', p).errors,
      'custom_property_definition.applications[0].local_user_properties.seats',
      /STRING, NUMBER, BOOLEAN, STRING_LIST, TIMESTAMP/,
    );
  });
  it('rejects an unknown operation', () => {
    const p = app();
    p.incremental_change = true;
    wiki(p).local_users[0].operation = 'upsert';
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[0].operation',
      /add, modify, delete, add_tag, remove_tag, delete_tag/,
    );
  });
});

describe('timestamps', () => {
  it('accepts RFC 3339 with offsets and fractions, and a leap day', () => {
    const p = app();
    wiki(p).local_users[1].created_at = '2024-02-29T23:59:59.5-07:00';
    expect(validate('application', p).errors).toEqual([]);
  });
  it.each([
    '2023-02-29T00:00:00Z',
    '2024-01-01 00:00:00',
    '2024-01-01T00:00:00',
    '2024-13-01T00:00:00Z',
    'yesterday',
  ])('rejects %s', (value) => {
    const p = app();
    wiki(p).local_users[1].last_login_at = value;
    expectOnly(validate('application', p).errors, 'applications[0].local_users[1].last_login_at', /RFC 3339/);
  });
});

describe('unknown keys', () => {
  it('rejects an unknown key anywhere, naming it and the allowed ones', () => {
    const p = app();
    wiki(p).resources[0].sub_resources[0].owner = 'x';
    expectOnly(
      validate('application', p).errors,
      'applications[0].resources[0].sub_resources[0].owner',
      /not an allowed field here; allowed: name, id, resource_type/,
    );
  });
});

describe('incremental payloads carry partial entities', () => {
  it('accepts a delete with only key fields but still rejects unknown keys and wrong types', () => {
    const p: any = {
      incremental_change: true,
      applications: [
        { name: 'Team Wiki', application_type: 'wiki', local_users: [{ name: 'Bob', operation: 'delete' }] },
      ],
      permissions: [{ name: 'Edit', operation: 'delete' }],
    };
    expect(validate('application', p).errors).toEqual([]);
    p.permissions[0].colour = 'red';
    p.applications[0].local_users[0].is_active = 'no';
    expect(
      validate('application', p)
        .errors.map((e) => e.field)
        .sort(),
    ).toEqual(['applications[0].local_users[0].is_active', 'permissions[0].colour']);
  });
});

describe('streamed collections', () => {
  function* once<T>(items: T[], reads: { count: number }) {
    reads.count++;
    yield* items;
  }
  it('validates users and grants given as one-shot iterables, reading each once', () => {
    const p = app();
    const userReads = { count: 0 };
    const grantReads = { count: 0 };
    wiki(p).local_users = once(wiki(p).local_users, userReads);
    p.identity_to_permissions = once(p.identity_to_permissions, grantReads);
    expect(validate('application', p)).toEqual({ errors: [], warnings: [] });
    expect([userReads.count, grantReads.count]).toEqual([1, 1]);
  });
  it('reports problems inside a streamed collection with their index', () => {
    const p = app();
    const users = [
      ...wiki(p).local_users,
      { name: 'carol', groups: ['Nobody'] },
      { name: 'dan', is_active: 'yes' },
    ];
    wiki(p).local_users = once(users, { count: 0 });
    const { errors } = validate('application', p);
    expect(errors.map((e) => e.field).sort()).toEqual([
      'applications[0].local_users[2].groups[0]',
      'applications[0].local_users[3].is_active',
    ]);
  });
  it('still lists the shape errors of streamed users when the rest of the payload is malformed', () => {
    const p = app();
    p.permissions[0].permission_type = 'DataRead';
    wiki(p).local_users = once([{ name: 'carol', is_active: 'yes' }], { count: 0 });
    expect(
      validate('application', p)
        .errors.map((e) => e.field)
        .sort(),
    ).toEqual(['applications[0].local_users[0].is_active', 'permissions[0].permission_type']);
  });
});
