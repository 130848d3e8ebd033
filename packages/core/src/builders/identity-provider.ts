/** Builder of `identity_provider` payloads. */
import { ValidationError, type Violation } from '../errors.js';
import type { PropertyType } from '../schemas/common.js';
import type {
  AppAssignment,
  IdentityProviderPayload,
  IdpApp,
  IdpGroup,
  IdpUser,
} from '../schemas/identity-provider.js';
import { duplicateEntity, Registry } from './registry.js';

type Domain = NonNullable<IdentityProviderPayload['domains']>[number];
/** Entity kinds of an identity provider whose custom properties are declared. */
export type IdpPropertyKind = 'domain' | 'user' | 'group' | 'app' | 'app_assignment';

/**
 * Builds an `identity_provider` payload. Apps must be added before the users and groups assigned to
 * them; a parent group or a `manager_id` may name one added later, and is checked by `build()`.
 *
 * @example
 * const b = new IdentityProviderPayloadBuilder({ name: 'Corp', idp_type: 'ldap' });
 * b.setDomain({ name: 'corp.example.com' });
 * b.addGroup({ name: 'Everyone', identity: 'g-all', source_identity: { identity: 'everyone@corp.example.com', provider_type: 'azure_ad' } });
 * b.addUser({ name: 'alice', identity: 'u-1', email: 'alice@example.com', identity_type: 'HUMAN', groups: [{ identity: 'g-all' }] });
 */
export class IdentityProviderPayloadBuilder {
  private readonly payload: IdentityProviderPayload;
  private readonly users = new Registry<IdpUser>('user');
  private readonly groups = new Registry<IdpGroup>('group');
  private readonly apps = new Registry<IdpApp>('app');

  constructor(header: Pick<IdentityProviderPayload, 'name' | 'idp_type'> & { idp_description?: string }) {
    this.payload = { ...header, domains: [], users: [], groups: [], apps: [] };
  }

  /** Declares a custom property of one entity kind (`app_assignment`: of users' and groups' app assignments). */
  defineProperty(kind: IdpPropertyKind, name: string, type: PropertyType): this {
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

  /** Adds a group; the apps it is assigned to must exist. */
  addGroup(group: IdpGroup): IdpGroup {
    for (const a of group.app_assignments ?? []) this.apps.get(a.app_id, 'group', group.name);
    this.groups.add(group.identity ?? group.name, group, group.identity ? group.name : undefined);
    this.payload.groups!.push(group);
    return group;
  }

  /** Adds a user; its groups and the apps it is assigned to must exist. */
  addUser(user: IdpUser): IdpUser {
    for (const g of user.groups ?? []) this.groups.get(g.identity, 'user', user.name);
    for (const a of user.app_assignments ?? []) this.apps.get(a.app_id, 'user', user.name);
    this.users.add(user.identity ?? user.name, user);
    this.payload.users!.push(user);
    return user;
  }

  /**
   * Assigns the user or group with `identity` (already added) to an app, as the vendor SDK's
   * `add_app_assignment` does; an assignment id is unique per user or group.
   */
  assignApp(principal: 'user' | 'group', identity: string, assignment: AppAssignment): AppAssignment {
    const entity = principal === 'user' ? this.users : this.groups;
    const target = entity.get(identity, 'app assignment of', identity);
    this.apps.get(assignment.app_id, principal, identity);
    const list = (target.app_assignments ??= []);
    // Case-sensitive, as the SDK keeps them.
    if (list.some((a) => a.id === assignment.id))
      throw duplicateEntity('app assignment', assignment.id, ` of ${principal} ${JSON.stringify(identity)}`);
    list.push(assignment);
    return assignment;
  }

  /** The payload; throws a `ValidationError` listing every parent group and `manager_id` that names nothing. */
  build(): IdentityProviderPayload {
    const violations: Violation[] = [];
    this.payload.groups!.forEach((g, i) =>
      (g.groups ?? []).forEach((parent, j) => {
        if (!this.groups.find(parent.identity)) {
          violations.push({
            field: `groups[${i}].groups[${j}].identity`,
            description: `group ${JSON.stringify(parent.identity)} is not the identity of a group`,
          });
        }
      }),
    );
    this.payload.users!.forEach((u, i) => {
      if (u.manager_id && !this.users.find(u.manager_id)) {
        violations.push({
          field: `users[${i}].manager_id`,
          description: `manager ${JSON.stringify(u.manager_id)} is not the identity of a user`,
        });
      }
    });
    if (violations.length) throw new ValidationError('the payload has dangling references', violations);
    return this.payload;
  }
}
