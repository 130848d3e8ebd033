/** Builders of `application` payloads: typed, case-insensitive, with references checked as they are made. */
import { NameTable } from '../internal/name-table.js';
import { IDENTITY_TYPES } from '../schemas/application.js';
import type {
  Application,
  ApplicationPayload,
  IdentityToPermissions,
  LocalAccessCred,
  LocalGroup,
  LocalRole,
  LocalUser,
  Permission,
  PermissionType,
  Resource,
} from '../schemas/application.js';
import type { PropertyType } from '../schemas/common.js';
import { EntityStream } from './entity-stream.js';
import { Registry } from './registry.js';
import { ResourceBuilder, type ResourceInput } from './resource.js';

type Definition = NonNullable<
  NonNullable<ApplicationPayload['custom_property_definition']>['applications']
>[number];
type RoleAssignment = NonNullable<IdentityToPermissions['role_assignments']>[number];
type ApplicationPermission = NonNullable<IdentityToPermissions['application_permissions']>[number];
type PropertyKind =
  'application' | 'local_user' | 'local_group' | 'local_role' | 'local_access_creds' | 'role_assignment';

/** One application of the payload; local identities, roles and resources are added through it. */
export class ApplicationBuilder {
  readonly users: Registry<LocalUser>;
  readonly groups: Registry<LocalGroup>;
  readonly roles: Registry<LocalRole>;
  readonly resources: Registry<Resource>;
  private readonly subResourceIndexes = new WeakMap<Resource, Registry<Resource>>();
  private readonly creds: Registry<LocalAccessCred>;
  private userStream: EntityStream<LocalUser> | undefined;

  constructor(
    readonly app: Application,
    private readonly definition: Definition,
    private readonly permissions: Registry<Permission>,
  ) {
    const scope = ` in application ${JSON.stringify(app.name)}`;
    this.users = new Registry('local user', scope);
    this.groups = new Registry('local group', scope);
    this.roles = new Registry('local role', scope);
    this.resources = new Registry('resource', scope);
    this.creds = new Registry('local access credential', scope);
  }

  /** Declares a custom property of one entity kind of this application's type. */
  defineProperty(kind: PropertyKind, name: string, type: PropertyType): this {
    const key = `${kind}_properties` as const;
    (this.definition[key] ??= {})[name] = type;
    return this;
  }

  /** Declares a custom property of resources of `resourceType`. */
  defineResourceProperty(resourceType: string, name: string, type: PropertyType): this {
    const list = (this.definition.resources ??= []);
    let entry = list.find((r) => r.resource_type.toLowerCase() === resourceType.toLowerCase());
    if (!entry) list.push((entry = { resource_type: resourceType, properties: {} }));
    (entry.properties ??= {})[name] = type;
    return this;
  }

  /**
   * Adds a local group; its `groups` (parents) must have been added already. The object is kept as
   * is. On any error nothing is added.
   */
  addLocalGroup(group: LocalGroup): LocalGroup {
    if (group.groups) for (const g of group.groups) this.groups.get(g, 'local group', group.name);
    this.groups.add(group.unique_id ?? group.name, group, group.unique_id ? group.name : undefined);
    (this.app.local_groups ??= []).push(group);
    return group;
  }

  /** Adds a local role; its permissions must have been defined on the payload already. */
  addLocalRole(role: LocalRole): LocalRole {
    if (role.permissions) for (const p of role.permissions) this.permissions.get(p, 'local role', role.name);
    this.roles.add(role.unique_id ?? role.name, role, role.unique_id ? role.name : undefined);
    (this.app.local_roles ??= []).push(role);
    return role;
  }

  /** Adds a local user; its groups must have been added already. The object is kept as is. */
  addLocalUser(user: LocalUser): LocalUser {
    const groups = user.groups;
    if (groups) for (let i = 0; i < groups.length; i++) this.groups.get(groups[i]!, 'local user', user.name);
    this.users.add(user.unique_id ?? user.name, user, user.unique_id ? user.name : undefined);
    (this.userStream?.eager ?? (this.app.local_users ??= [])).push(user);
    return user;
  }

  /**
   * Adds local users that are produced when the payload is read (validated, serialized), never held
   * in memory: for millions of users. They are not checked here but by `validate`, and grants to
   * them go through `ApplicationPayloadBuilder.addIdentityToPermissions`. Pass a re-iterable source
   * (see `EntityStream`).
   *
   * @example
   * app.addLocalUsers({ *[Symbol.iterator]() { for (const row of rows) yield { name: row.login } } });
   */
  addLocalUsers(users: Iterable<LocalUser>): void {
    if (!this.userStream) {
      this.userStream = new EntityStream<LocalUser>([...(this.app.local_users ?? [])], 'local users');
      this.app.local_users = this.userStream as unknown as LocalUser[];
    }
    this.userStream.add(users);
  }

  /** Adds a local access credential. */
  addLocalAccessCred(cred: LocalAccessCred): LocalAccessCred {
    this.creds.add(cred.unique_id ?? cred.name, cred);
    (this.app.local_access_creds ??= []).push(cred);
    return cred;
  }

  /** Adds a top-level resource; sub-resources are added on the returned builder. */
  addResource(input: ResourceInput): ResourceBuilder {
    const resource = { ...input };
    this.resources.add(input.id ?? input.name, resource, input.id ? input.name : undefined);
    const builder = new ResourceBuilder(resource, undefined, this.subResourceIndexes);
    (this.app.resources ??= []).push(resource);
    return builder;
  }

  /** Drops the indexes once the payload is built. */
  release(): void {
    for (const r of [this.users, this.groups, this.roles, this.resources, this.creds] as Registry<unknown>[])
      r.clear();
  }

  /** Throws unless `ref` (a key or name; sub-resources as `parent.child`) names a resource. */
  requireResource(ref: string, fromKind: string, fromName: string): void {
    const [first, ...rest] = ref.split('.');
    const top = this.resources.find(first!);
    let node = top ? new ResourceBuilder(top, undefined, this.subResourceIndexes) : undefined;
    for (const part of rest) node = node?.subResource(part);
    // A name that itself contains dots is looked up whole.
    if (!node) this.resources.get(ref, fromKind, fromName);
  }
}

export interface GrantBase {
  /** Local user or group name (or unique id), or an identity-provider login email or group name. */
  identity: string;
  identityType: IdentityToPermissions['identity_type'];
  application: string;
  /** Resource references (sub-resources as `parent.child`); empty with `applyToApplication`. */
  resources?: string[];
  applyToApplication?: boolean;
}

/**
 * Builds an `application` payload.
 *
 * @example
 * const b = new ApplicationPayloadBuilder();
 * b.addPermission({ name: 'View', permission_type: ['DataRead'] });
 * const app = b.addApplication({ name: 'Wiki', application_type: 'wiki' });
 * app.addLocalRole({ name: 'Reader', permissions: ['View'] });
 * app.addLocalUser({ name: 'alice', identities: ['alice@example.com'] });
 * b.grantRole({ identity: 'alice', identityType: 'local_user', application: 'Wiki', role: 'Reader', applyToApplication: true });
 * const payload = b.build();
 */
export class ApplicationPayloadBuilder {
  private readonly payload: ApplicationPayload = {
    applications: [],
    permissions: [],
    identity_to_permissions: [],
  };
  private readonly apps = new Registry<ApplicationBuilder>('application');
  private readonly permissions = new Registry<Permission>('permission');
  private readonly grants = new NameTable<IdentityToPermissions>();
  private readonly pool = new NameTable<object>();
  private grantStream: EntityStream<IdentityToPermissions> | undefined;

  /** Adds an application. Its custom property definitions are declared on the returned builder. */
  addApplication(
    app: Omit<Application, 'local_users' | 'local_groups' | 'local_roles' | 'resources'>,
  ): ApplicationBuilder {
    const application: Application = { ...app };
    const definitions = ((this.payload.custom_property_definition ??= { applications: [] }).applications ??=
      []);
    let definition = definitions.find(
      (d) => d.application_type.toLowerCase() === app.application_type.toLowerCase(),
    );
    if (!definition) definitions.push((definition = { application_type: app.application_type }));
    const builder = this.apps.add(
      app.name,
      new ApplicationBuilder(application, definition, this.permissions),
    );
    this.payload.applications.push(application);
    return builder;
  }

  /** The application named `name` (any case). */
  application(name: string): ApplicationBuilder | undefined {
    return this.apps.find(name);
  }

  /** Defines a permission (top level: applications share them). */
  addPermission(
    permission: Omit<Permission, 'permission_type'> & { permission_type: PermissionType[] },
  ): Permission {
    this.permissions.add(permission.name, permission);
    this.payload.permissions!.push(permission);
    return permission;
  }

  /** Gives `identity` a local role of `application`. */
  grantRole(grant: GrantBase & { role: string }): void {
    const app = this.checkGrant(grant);
    app.roles.get(grant.role, 'role assignment of', grant.identity);
    (this.entry(grant).role_assignments ??= []).push(
      this.shared(grant, grant.role, () => {
        const assignment: RoleAssignment = {
          application: grant.application,
          role: grant.role,
          apply_to_application: grant.applyToApplication ?? false,
        };
        if (grant.resources?.length) assignment.resources = grant.resources;
        return assignment;
      }),
    );
  }

  /** Gives `identity` a permission on `application` or on some of its resources. */
  grantPermission(grant: GrantBase & { permission: string }): void {
    this.checkGrant(grant);
    this.permissions.get(grant.permission, 'permission grant to', grant.identity);
    (this.entry(grant).application_permissions ??= []).push(
      this.shared(
        grant,
        grant.permission,
        () => {
          const granted: ApplicationPermission = {
            application: grant.application,
            permission: grant.permission,
            apply_to_application: grant.applyToApplication ?? false,
          };
          if (grant.resources?.length) granted.resources = grant.resources;
          return granted;
        },
        1,
      ),
    );
  }

  /**
   * Adds identity_to_permissions entries that are produced when the payload is read, for millions
   * of grants. They are checked by `validate`, not here, and must not repeat an identity that
   * `grantRole` or `grantPermission` also used.
   */
  addIdentityToPermissions(entries: Iterable<IdentityToPermissions>): void {
    if (!this.grantStream) {
      this.grantStream = new EntityStream<IdentityToPermissions>(
        this.payload.identity_to_permissions!,
        'identity_to_permissions entries',
      );
      this.payload.identity_to_permissions = this.grantStream as unknown as IdentityToPermissions[];
    }
    this.grantStream.add(entries);
  }

  /** The payload. The builder should not be used afterwards. */
  build(): ApplicationPayload {
    // The indexes are only needed while building: release them before the payload is validated.
    this.grants.clear();
    this.pool.clear();
    this.permissions.clear();
    for (const app of this.apps.all()) app.release();
    this.apps.clear();
    return this.payload;
  }

  private checkGrant(grant: GrantBase): ApplicationBuilder {
    const app = this.apps.get(grant.application, 'grant to', grant.identity);
    if (grant.identityType === 'local_user') app.users.get(grant.identity, 'grant to', grant.identity);
    else if (grant.identityType === 'local_group') app.groups.get(grant.identity, 'grant to', grant.identity);
    if (grant.resources) for (const r of grant.resources) app.requireResource(r, 'grant to', grant.identity);
    return app;
  }

  /**
   * Identities with identical grants share one frozen grant object (a million users holding one of
   * fifty roles need fifty assignment objects, not a million). Grants with resources are not shared.
   */
  private shared<T extends object>(grant: GrantBase, what: string, make: () => T, salt = 0): T {
    if (grant.resources?.length) return make();
    const key = `${grant.application}\u0000${what}`;
    const s = salt * 2 + (grant.applyToApplication ? 1 : 0);
    const found = this.pool.find(key, s);
    if (found !== -1) return this.pool.valueAt(found) as T;
    // Frozen: a change to one identity's grant must not reach every identity sharing it (and the
    // serializer writes a frozen object once, then copies its bytes).
    const made = Object.freeze(make());
    this.pool.insert(key, made, s);
    return made;
  }

  private entry(grant: GrantBase): IdentityToPermissions {
    const salt = IDENTITY_TYPES.indexOf(grant.identityType);
    const found = this.grants.find(grant.identity, salt);
    if (found !== -1) return this.grants.valueAt(found);
    const entry: IdentityToPermissions = { identity: grant.identity, identity_type: grant.identityType };
    this.grants.insert(grant.identity, entry, salt);
    (this.grantStream?.eager ?? this.payload.identity_to_permissions!).push(entry);
    return entry;
  }
}
