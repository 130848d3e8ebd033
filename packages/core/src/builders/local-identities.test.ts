/**
 * Builders key local users, groups, roles and access credentials as the service does (`id`, else
 * `unique_id`, else `name`), and refuse references to what has not been added.
 */
import { describe, expect, it } from 'vitest';
import { OaaError, ValidationError } from '../errors.js';
import { validate } from '../validate/index.js';
import { ApplicationPayloadBuilder } from './application-payload.js';
import { IdentityProviderPayloadBuilder } from './identity-provider.js';

function failure(fn: () => unknown): OaaError | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof OaaError) return e;
    throw e;
  }
  return undefined;
}

function start() {
  const b = new ApplicationPayloadBuilder();
  b.addPermission({ name: 'read', permission_type: ['DataRead'] });
  const app = b.addApplication({ name: 'app', application_type: 'sdk' });
  return { b, app };
}

describe('local identities in the application builder', () => {
  it('keeps two users with one name and different ids, and grants to each by id', () => {
    const { b, app } = start();
    app.addLocalUser({ name: 'Bob', id: 'u-1' });
    app.addLocalUser({ name: 'Bob', id: 'u-2' });
    // A name beside an id never takes a later user's key.
    app.addLocalUser({ name: 'Rob', id: 'bob' });
    for (const identity of ['u-1', 'U-2', 'bob'])
      b.grantPermission({
        identity,
        identityType: 'local_user',
        application: 'app',
        permission: 'read',
        applyToApplication: true,
      });
    expect(validate('application', b.build()).errors).toEqual([]);
  });
  it('refuses a repeated id', () => {
    const { app } = start();
    app.addLocalUser({ name: 'Bob', id: 'u-1' });
    const error = failure(() => app.addLocalUser({ name: 'Rob', id: 'U-1' }));
    expect(error?.code).toBe('DUPLICATE_ENTITY');
    expect(error?.message).toBe(
      'duplicate local user "U-1" in application "app": names and ids compare without case',
    );
  });
  it('refuses a nested role, an access credential or a grantee that has not been added', () => {
    const { b, app } = start();
    app.addLocalRole({ name: 'reader', id: 'r-1', permissions: ['read'] });
    app.addLocalRole({ name: 'lead', roles: ['R-1'] });
    expect(failure(() => app.addLocalRole({ name: 'boss', roles: ['r-9'] }))?.message).toBe(
      'local role "boss" references local role "r-9" in application "app", which has not been added',
    );
    expect(failure(() => app.addLocalUser({ name: 'ci', access_creds: ['key-1'] }))?.code).toBe(
      'UNKNOWN_REFERENCE',
    );
    app.addLocalAccessCred({ id: 'key-1', name: 'deploy key', is_active: true });
    app.addLocalUser({ name: 'ci', access_creds: ['key-1'] });
    const grant = {
      identityType: 'local_access_creds',
      application: 'app',
      role: 'lead',
      applyToApplication: true,
    } as const;
    b.grantRole({ ...grant, identity: 'deploy key' });
    expect(failure(() => b.grantRole({ ...grant, identity: 'key-2' }))?.code).toBe('UNKNOWN_REFERENCE');
    expect(validate('application', b.build()).errors).toEqual([]);
  });
});

describe('the identity-provider builder', () => {
  it('checks parent groups at build(), so they may come in any order', () => {
    const b = new IdentityProviderPayloadBuilder({ name: 'idp', idp_type: 'sdk_idp' });
    b.setDomain({ name: 'example.com' });
    b.addGroup({ name: 'child', identity: 'g-1', groups: [{ identity: 'g-2' }, { identity: 'g-9' }] });
    b.addGroup({ name: 'parent', identity: 'g-2' });
    const error = failure(() => b.build());
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations).toEqual([
      { field: 'groups[0].groups[1].identity', description: 'group "g-9" is not the identity of a group' },
    ]);
  });
  it('refuses a second app assignment with the same id for one user', () => {
    const b = new IdentityProviderPayloadBuilder({ name: 'idp', idp_type: 'sdk_idp' });
    b.addApp({ id: 'a1', name: 'App' });
    b.addUser({ name: 'alice', identity: 'u-1' });
    b.assignApp('user', 'u-1', { id: 'as-1', app_id: 'a1', custom_properties: {} });
    const error = failure(() => b.assignApp('user', 'U-1', { id: 'as-1', app_id: 'a1' }));
    expect(error?.code).toBe('DUPLICATE_ENTITY');
    expect(failure(() => b.assignApp('user', 'u-1', { id: 'as-2', app_id: 'a9' }))?.code).toBe(
      'UNKNOWN_REFERENCE',
    );
  });
});
