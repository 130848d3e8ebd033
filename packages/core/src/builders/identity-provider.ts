/** Builder of `identity_provider` payloads. */
import { ValidationError, type Violation } from '../errors.js';
import type { PropertyType } from '../schemas/common.js';
import type { IdentityProviderPayload, IdpApp, IdpGroup, IdpUser } from '../schemas/identity-provider.js';
import { Registry } from './registry.js';

type Domain = NonNullable<IdentityProviderPayload['domains']>[number];
type PropertyKind = 'domain' | 'user' | 'group' | 'app';

/**
 * Builds an `identity_provider` payload. Groups and apps must be added before the users and groups
 * that reference them; a `manager_id` may name a user added later and is checked by `build()`.
 *
 * @example
 * const b = new IdentityProviderPayloadBuilder({ name: 'Corp', idp_type: 'ldap' });
 * b.setDomain({ name: 'corp.example.com' });
 * b.addGroup({ name: 'Everyone', identity: 'g-all' });
 * b.addUser({ name: 'alice', identity: 'u-1', email: 'alice@example.com', groups: [{ identity: 'g-all' }] });
 */
export class IdentityProviderPayloadBuilder {
  private readonly payload: IdentityProviderPayload;
  private readonly users = new Registry<IdpUser>('user');
  private readonly groups = new Registry<IdpGroup>('group');
  private readonly apps = new Registry<IdpApp>('app');

  constructor(header: Pick<IdentityProviderPayload, 'name' | 'idp_type'> & { idp_description?: string }) {
    this.payload = { ...header, domains: [], users: [], groups: [], apps: [] };
  }

  /** Declares a custom property of one entity kind. */
  defineProperty(kind: PropertyKind, name: string, type: PropertyType): this {
    const defs = (this.payload.custom_property_definition ??= {});
    (defs[`${kind}_properties`] ??= {})[name] = type;
    return this;
  }

  /** Sets the provider's one domain. */
  setDomain(domain: Domain): Domain {
    this.payload.domains = [domain];
    return domain;
  }

  addApp(app: IdpApp): IdpApp {
    this.apps.add(app.id, app);
    this.payload.apps!.push(app);
    return app;
  }

  /** Adds a group; its parent groups and app assignments must exist. */
  addGroup(group: IdpGroup): IdpGroup {
    for (const parent of group.groups ?? []) this.groups.get(parent.identity, 'group', group.name);
    for (const a of group.app_assignments ?? []) this.apps.get(a.app_id, 'group', group.name);
    this.groups.add(group.identity ?? group.name, group, group.identity ? group.name : undefined);
    this.payload.groups!.push(group);
    return group;
  }

  /** Adds a user; its groups and app assignments must exist. */
  addUser(user: IdpUser): IdpUser {
    for (const g of user.groups ?? []) this.groups.get(g.identity, 'user', user.name);
    for (const a of user.app_assignments ?? []) this.apps.get(a.app_id, 'user', user.name);
    this.users.add(user.identity ?? user.name, user);
    this.payload.users!.push(user);
    return user;
  }

  /** The payload; throws a `ValidationError` listing every `manager_id` that names no user. */
  build(): IdentityProviderPayload {
    const violations: Violation[] = [];
    this.payload.users!.forEach((u, i) => {
      if (u.manager_id && !this.users.find(u.manager_id)) {
        violations.push({
          field: `users[${i}].manager_id`,
          description: `manager ${JSON.stringify(u.manager_id)} is not the identity of a user`,
        });
      }
    });
    if (violations.length)
      throw new ValidationError('the payload has dangling manager references', violations);
    return this.payload;
  }
}
