/** Builder of one application of an `application` payload: local identities, roles, creds and resources. */
import { copyEntity } from '../internal/copy-entity.js';
import type {
  Application,
  ApplicationPropertyDefinition,
  LocalAccessCred,
  LocalGroup,
  LocalRole,
  LocalUser,
  Permission,
  Resource,
} from '../schemas/application.js';
import type { Owner, PropertyType } from '../schemas/common.js';
import { EntityStream } from './entity-stream.js';
import { Registry } from './registry.js';
import { ResourceBuilder, type ResourceInput } from './resource.js';

/** Entity kinds of an application whose custom properties are declared per application type. */
export type ApplicationPropertyKind =
  'application' | 'local_user' | 'local_group' | 'local_role' | 'local_access_creds' | 'role_assignment';

/** A local identity's identifying fields. */
interface LocalKeyed {
  name: string;
  id?: string | null | undefined;
  unique_id?: string | null | undefined;
}

/**
 * Registers `e` under its key (`id`, else `unique_id`, else `name`, as the service knows local
 * identities) with its other names as aliases.
 */
function addLocal<T extends LocalKeyed>(registry: Registry<T>, e: T): void {
  const key = e.id ?? e.unique_id ?? e.name;
  registry.add(key, e, e.id != null ? e.unique_id : undefined, key === e.name ? undefined : e.name);
}

/**
 * One application of the payload; local identities, roles, access credentials and resources are
 * added through it. Local users, groups, roles and credentials are known by `id`, else `unique_id`,
 * else `name` (any case), and references name them by that key or by name.
 */
export class ApplicationBuilder {
  readonly users: Registry<LocalUser>;
  readonly groups: Registry<LocalGroup>;
  readonly roles: Registry<LocalRole>;
  readonly creds: Registry<LocalAccessCred>;
  readonly resources: Registry<Resource>;
  private readonly subResourceIndexes = new WeakMap<Resource, Registry<Resource>>();
  private userStream: EntityStream<LocalUser> | undefined;

  constructor(
    readonly app: Application,
    private readonly definition: ApplicationPropertyDefinition,
    private readonly permissions: Registry<Permission>,
  ) {
    const scope = ` in application ${JSON.stringify(app.name)}`;
    this.users = new Registry('local user', scope);
    this.groups = new Registry('local group', scope);
    this.roles = new Registry('local role', scope);
    this.creds = new Registry('local access credential', scope);
    this.resources = new Registry('resource', scope);
  }

  /** Declares a custom property of one entity kind of this application's type. */
  defineProperty(kind: ApplicationPropertyKind, name: string, type: PropertyType): this {
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
   * Adds an owner of the application (vendor SDK owners; `owner_type` is free text such as
   * `oktauser` or `OAA.<idp_type>.IDPUser`). An owner already listed (same id and type) is not
   * added again.
   */
  addOwner(owner: Owner): Owner {
    const owners = (this.app.owners ??= []);
    const same = owners.find((o) => o.external_id === owner.external_id && o.owner_type === owner.owner_type);
    if (same) return same;
    owners.push(owner);
    return owner;
  }

  /**
   * Adds a local group; its `groups` (parents) must have been added already. The object is kept as
   * is. On any error nothing is added.
   */
  addLocalGroup(group: LocalGroup): LocalGroup {
    if (group.groups) for (const g of group.groups) this.groups.get(g, 'local group', group.name);
    addLocal(this.groups, group);
    (this.app.local_groups ??= []).push(group);
    return group;
  }

  /**
   * Adds a local role; its permissions must have been defined on the payload, and its nested
   * `roles` added to this application, already (so nesting can have no cycle).
   */
  addLocalRole(role: LocalRole): LocalRole {
    if (role.permissions) for (const p of role.permissions) this.permissions.get(p, 'local role', role.name);
    if (role.roles) for (const r of role.roles) this.roles.get(r, 'local role', role.name);
    addLocal(this.roles, role);
    (this.app.local_roles ??= []).push(role);
    return role;
  }

  /**
   * Adds a local access credential (API key, token). Users list theirs in `access_creds`, and
   * grants give it permissions with `identityType: 'local_access_creds'`.
   */
  addLocalAccessCred(cred: LocalAccessCred): LocalAccessCred {
    addLocal(this.creds, cred);
    (this.app.local_access_creds ??= []).push(cred);
    return cred;
  }

  /**
   * Adds a local user; its groups and access credentials must have been added already. The object
   * is kept as is.
   */
  addLocalUser(user: LocalUser): LocalUser {
    const groups = user.groups;
    if (groups) for (let i = 0; i < groups.length; i++) this.groups.get(groups[i]!, 'local user', user.name);
    if (user.access_creds) for (const c of user.access_creds) this.creds.get(c, 'local user', user.name);
    addLocal(this.users, user);
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

  /** Adds a top-level resource; sub-resources are added on the returned builder. */
  addResource(input: ResourceInput): ResourceBuilder {
    const resource = copyEntity(input);
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
