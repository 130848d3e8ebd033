/** Semantic rules of the application template, run after the structural check passed. */
import {
  IDENTITY_TYPES,
  identityToPermissionsSchema,
  localUserSchema,
  type Application,
  type ApplicationPayload,
  type IdentityToPermissions,
  type LocalUser,
} from '../schemas/application.js';
import { compile, type Check } from './compile.js';
import type { PropertyType } from '../schemas/common.js';
import { isAsyncStreamed, isStreamed, toArray, type Collection } from './collections.js';
import type { CheckContext, PathSegment } from './context.js';
import { ResourceIndex } from './application-resources.js';
import { duplicateMessage, findCycles, fold, NameIndex } from './names.js';
import { checkCustomProperties } from './properties.js';
import type { SemanticOptions } from './options.js';

type Definition = NonNullable<
  NonNullable<ApplicationPayload['custom_property_definition']>['applications']
>[number];

/** What identity_to_permissions may reference inside one application. */
interface AppScope {
  app: Application;
  users: NameIndex;
  groups: NameIndex;
  roles: NameIndex;
  resources: ResourceIndex;
  hasIdpIdentity: boolean;
  /** Whether the users could not be read (an async iterable given to `validate`). */
  usersUnknown?: boolean;
  userProperties: Record<string, PropertyType> | null | undefined;
}

const keyOf = (e: { unique_id?: string | null | undefined; name: string }) => e.unique_id ?? e.name;

/**
 * Checks one streamed collection entity by entity: `begin`, `visit` for each entity in order,
 * then `end`. Validation and serialization can share one read of a million users this way.
 */
export interface EntityVisitor<T> {
  begin(): void;
  visit(entity: T, index: number): void;
  end(): void;
}

/** Runs `visitor` over `collection` (absent: nothing to visit); false when it cannot be read. */
export function visitAll<T>(
  collection: Collection<T> | null | undefined,
  visitor: EntityVisitor<T>,
  ctx: CheckContext,
  ...at: PathSegment[]
): boolean {
  if (isAsyncStreamed(collection) && !isStreamed(collection)) {
    ctx.error(
      'is an async iterable, which validate() cannot read: validate the payload while it is serialized (createPayloadStream or pushPayload with validate, or validateAsRead)',
      ...at,
    );
    return false;
  }
  visitor.begin();
  let i = 0;
  if (collection) for (const entity of collection) visitor.visit(entity, i++);
  visitor.end();
  return true;
}

/**
 * The application template's semantic rules in three phases: `checkRest` (everything but the local
 * users and the identity_to_permissions entries, which may be streamed), then the visitors of
 * `localUsers(a)` for each application and of `grants`, in that order, then `finish`.
 */
export class ApplicationChecks {
  readonly grants: EntityVisitor<IdentityToPermissions>;
  private readonly incremental: boolean;
  private readonly permissions = new NameIndex('permission');
  /** Per application index: its scope, or undefined when its name repeats an earlier one. */
  private readonly scopeAt: (AppScope | undefined)[] = [];
  private readonly scopes = new Map<string, AppScope>();

  constructor(
    private readonly p: ApplicationPayload,
    private readonly ctx: CheckContext,
    private readonly options: SemanticOptions,
  ) {
    this.incremental = p.incremental_change === true;
    this.grants = new GrantChecks(this.scopes, this.permissions, ctx, this.incremental, options);
  }

  checkRest(): void {
    const { p, ctx, incremental, permissions } = this;
    const definitions = new Map<string, Definition>();
    for (const d of p.custom_property_definition?.applications ?? [])
      definitions.set(fold(d.application_type), d);

    ctx.at('permissions', () =>
      toArray(p.permissions).forEach((perm, i) =>
        ctx.at(i, () => {
          permissions.add(perm.name, i, ctx, 'name', perm.operation);
          if (!incremental && perm.operation)
            ctx.error('is only allowed when incremental_change is true', 'operation');
        }),
      ),
    );

    const apps = new NameIndex('application');
    ctx.at('applications', () =>
      toArray(p.applications).forEach((app, i) =>
        ctx.at(i, () => {
          if (!apps.add(app.name, i, ctx, 'name', app.operation)) {
            this.scopeAt.push(undefined);
            return;
          }
          const scope = checkApplication(
            app,
            definitions.get(fold(app.application_type)),
            permissions,
            ctx,
            incremental,
            this.options,
          );
          this.scopeAt.push(scope);
          this.scopes.set(fold(app.name), scope);
        }),
      ),
    );
  }

  /** The checks of the local users of the application at index `a` (none for a repeated name). */
  localUsers(a: number): EntityVisitor<LocalUser> {
    const scope = this.scopeAt[a];
    return scope ? new UserChecks(scope, a, this.ctx, this.incremental, this.options) : IGNORE;
  }

  /** Records that the users of application `a` could not be read: grants to them are not judged. */
  usersUnknown(a: number): void {
    const scope = this.scopeAt[a];
    if (scope) scope.usersUnknown = true;
  }

  /** The rules that need every entity seen: an application has at least one identity. */
  finish(): void {
    if (this.incremental) return;
    this.scopeAt.forEach((scope, i) => {
      if (
        scope &&
        scope.usersUnknown !== true &&
        scope.users.size + scope.groups.size + scope.roles.size === 0 &&
        !scope.hasIdpIdentity
      ) {
        this.ctx.error(
          'an application needs at least one identity: a local user, local group, local role, or an idp identity in identity_to_permissions',
          'applications',
          i,
        );
      }
    });
  }
}

const IGNORE: EntityVisitor<never> = { begin() {}, visit() {}, end() {} };

/** Runs every application rule over a payload held in memory (or with re-iterable collections). */
export function checkApplicationPayload(
  p: ApplicationPayload,
  ctx: CheckContext,
  options: SemanticOptions,
): void {
  const checks = new ApplicationChecks(p, ctx, options);
  checks.checkRest();
  toArray(p.applications).forEach((app, a) => {
    const read = visitAll(
      app.local_users as Collection<LocalUser> | undefined,
      checks.localUsers(a),
      ctx,
      'applications',
      a,
      'local_users',
    );
    if (!read) checks.usersUnknown(a);
  });
  visitAll(
    p.identity_to_permissions as Collection<IdentityToPermissions> | undefined,
    checks.grants,
    ctx,
    'identity_to_permissions',
  );
  checks.finish();
}

/** Groups, roles, access credentials and resources of one application; its users come later. */
function checkApplication(
  app: Application,
  def: Definition | undefined,
  permissions: NameIndex,
  ctx: CheckContext,
  incremental: boolean,
  options: SemanticOptions,
): AppScope {
  const type = JSON.stringify(app.application_type);
  checkCustomProperties(
    app.custom_properties,
    def?.application_properties,
    `application_properties of application type ${type}`,
    ctx,
  );
  if (!incremental && app.operation)
    ctx.error('is only allowed when incremental_change is true', 'operation');
  const path = ctx.path;
  const notIncremental = (op: unknown) => {
    if (!incremental && op) ctx.error('is only allowed when incremental_change is true', 'operation');
  };

  // Groups first: users and groups reference them.
  const groups = new NameIndex('local group');
  const groupList = toArray(app.local_groups);
  path.push('local_groups');
  groupList.forEach((g, i) => {
    path.push(i);
    groups.add(keyOf(g), i, ctx, g.unique_id ? 'unique_id' : 'name', g.operation);
    notIncremental(g.operation);
    checkCustomProperties(
      g.custom_properties,
      def?.local_group_properties,
      `local_group_properties of application type ${type}`,
      ctx,
    );
    checkIdentities(g.identities, ctx, options);
    path.pop();
  });
  groupList.forEach((g, i) => g.unique_id && groups.alias(g.name, i));
  const parents: number[][] = groupList.map(() => []);
  groupList.forEach((g, i) =>
    (g.groups ?? []).forEach((ref, j) => {
      const target = groups.get(ref);
      if (target !== undefined) parents[i]!.push(target);
      else if (!incremental)
        ctx.error(
          `local group ${JSON.stringify(ref)} does not exist in application ${JSON.stringify(app.name)}`,
          i,
          'groups',
          j,
        );
    }),
  );
  for (const cycle of findCycles(parents)) {
    const names = [...cycle, cycle[0]!].map((i) => JSON.stringify(groupList[i]!.name)).join(' -> ');
    ctx.error(`local group nesting has a cycle: ${names}`, cycle[0]!, 'groups');
  }
  path.pop();

  const roles = new NameIndex('local role');
  path.push('local_roles');
  toArray(app.local_roles).forEach((r, i) => {
    path.push(i);
    roles.add(keyOf(r), i, ctx, r.unique_id ? 'unique_id' : 'name', r.operation);
    if (r.unique_id) roles.alias(r.name, i);
    notIncremental(r.operation);
    checkCustomProperties(
      r.custom_properties,
      def?.local_role_properties,
      `local_role_properties of application type ${type}`,
      ctx,
    );
    const perms = r.permissions ?? [];
    if (perms.length === 0 && !incremental) {
      ctx.warn(
        `Role is missing permission: local role ${JSON.stringify(r.name)} of application ${JSON.stringify(app.name)} grants no permission`,
      );
    }
    perms.forEach((perm, j) => {
      if (!incremental && !permissions.has(perm))
        ctx.error(
          `permission ${JSON.stringify(perm)} does not exist in the top-level permissions`,
          'permissions',
          j,
        );
    });
    path.pop();
  });
  path.pop();

  const creds = new NameIndex('local access credential');
  path.push('local_access_creds');
  toArray(app.local_access_creds).forEach((c, i) =>
    ctx.at(i, () => {
      creds.add(keyOf(c), i, ctx, c.unique_id ? 'unique_id' : 'name', c.operation);
      notIncremental(c.operation);
      checkCustomProperties(
        c.custom_properties,
        def?.local_access_creds_properties,
        `local_access_creds_properties of application type ${type}`,
        ctx,
      );
    }),
  );
  path.pop();

  const resourceDefs = new Map((def?.resources ?? []).map((r) => [fold(r.resource_type), r.properties]));
  const resources = new ResourceIndex((t) => resourceDefs.get(fold(t)), incremental);
  path.push('resources');
  resources.walkRoot(app.resources ?? [], ctx);
  path.pop();

  return {
    app,
    users: new NameIndex('local user'),
    groups,
    roles,
    resources,
    hasIdpIdentity: false,
    userProperties: def?.local_user_properties,
  };
}

/** The local users of one application, one at a time (a million is usual: no closures per user). */
class UserChecks implements EntityVisitor<LocalUser> {
  private readonly checkShape: Check;
  private readonly where: string;
  /** Per user: 1 when keyed by unique id rather than name (for messages). */
  private withId = new Uint8Array(0);

  constructor(
    private readonly scope: AppScope,
    private readonly appIndex: number,
    private readonly ctx: CheckContext,
    private readonly incremental: boolean,
    private readonly options: SemanticOptions,
  ) {
    // The structural walk left users to this visitor, so a streamed collection is read once.
    this.checkShape = compile(localUserSchema, { partial: incremental });
    this.where = `local_user_properties of application type ${JSON.stringify(scope.app.application_type)}`;
  }

  begin(): void {
    this.ctx.path.push('applications', this.appIndex, 'local_users');
  }

  end(): void {
    if (!this.incremental)
      this.scope.users.flush(this.ctx, (i) => (this.withId[i] === 1 ? 'unique_id' : 'name'));
    this.ctx.path.length -= 3;
  }

  visit(u: LocalUser, i: number): void {
    const { ctx, scope, incremental } = this;
    const path = ctx.path;
    path.push(i);
    const before = ctx.errors.length;
    this.checkShape(u, ctx);
    if (ctx.errors.length !== before) {
      // Still known by its name, so that grants to it do not add errors of their own.
      if (isKeyed(u)) this.register(u, i);
      path.pop();
      return;
    }
    this.register(u, i);
    if (u.operation && !incremental)
      ctx.error('is only allowed when incremental_change is true', 'operation');
    if (u.custom_properties)
      checkCustomProperties(u.custom_properties, scope.userProperties, this.where, ctx);
    const refs = u.groups;
    if (refs && !incremental) {
      for (let j = 0; j < refs.length; j++) {
        if (!scope.groups.has(refs[j]!))
          ctx.error(
            `local group ${JSON.stringify(refs[j])} does not exist in application ${JSON.stringify(scope.app.name)}`,
            'groups',
            j,
          );
      }
    }
    if (this.options.knownIdentity && u.identities) checkIdentities(u.identities, ctx, this.options);
    path.pop();
  }

  private register(u: LocalUser, i: number): void {
    const users = this.scope.users;
    if (this.incremental) {
      users.add(u.unique_id ?? u.name, i, this.ctx, u.unique_id ? 'unique_id' : 'name', u.operation);
    } else {
      // Repeated keys are reported when the last user has been seen (see `end`).
      users.addLater(u.unique_id ?? u.name, i);
      if (u.unique_id) {
        if (i >= this.withId.length) {
          const grown = new Uint8Array(Math.max(1024, 2 * this.withId.length, i + 1));
          grown.set(this.withId);
          this.withId = grown;
        }
        this.withId[i] = 1;
        users.aliasLater(u.name, i);
      }
      return;
    }
    if (u.unique_id) users.alias(u.name, i);
  }
}

/** Whether a user that failed its shape check still has a usable name (and unique id, if any). */
function isKeyed(u: unknown): u is LocalUser {
  if (typeof u !== 'object' || u === null) return false;
  const { name, unique_id: id } = u as Record<string, unknown>;
  return typeof name === 'string' && (id === undefined || id === null || typeof id === 'string');
}

/** Warns about federated identities that match no identity-provider entity, as the service does. */
function checkIdentities(
  identities: readonly string[] | null | undefined,
  ctx: CheckContext,
  options: SemanticOptions,
): void {
  if (!identities || !options.knownIdentity) return;
  identities.forEach((id, j) => {
    if (!options.knownIdentity!(id))
      ctx.warn(
        `Cannot find identity by names ${JSON.stringify(id)}: no identity-provider user or group has this name, email or identity`,
        'identities',
        j,
      );
  });
}

/** The identity_to_permissions entries, one at a time (a million is usual: plain loops, one-entry caches). */
class GrantChecks implements EntityVisitor<IdentityToPermissions> {
  private readonly seen = new NameIndex('identity_to_permissions entry');
  private readonly checkShape: Check;
  private lastApp = '';
  private lastScope: AppScope | undefined;
  /** The application when the payload has exactly one. */
  private only: AppScope | undefined;
  /** Per user of `only` (by key position): 1 + the index of the entry naming it, or 0. */
  private firstEntry: Int32Array | undefined;

  constructor(
    private readonly scopes: Map<string, AppScope>,
    private readonly permissions: NameIndex,
    private readonly ctx: CheckContext,
    private readonly incremental: boolean,
    private readonly options: SemanticOptions,
  ) {
    this.checkShape = compile(identityToPermissionsSchema, { partial: incremental });
  }

  begin(): void {
    this.ctx.path.push('identity_to_permissions');
    // Every user has been seen by now.
    if (this.scopes.size === 1) {
      this.only = this.scopes.values().next().value;
      this.firstEntry = new Int32Array(this.only!.users.size);
    }
  }

  end(): void {
    this.ctx.path.pop();
  }

  visit(entry: IdentityToPermissions, i: number): void {
    const { ctx, incremental, options } = this;
    const path = ctx.path;
    path.push(i);
    const before = ctx.errors.length;
    this.checkShape(entry, ctx);
    if (ctx.errors.length !== before) {
      path.pop();
      return;
    }
    // One application (the usual case): a local user's entry is found by its place among the users,
    // which both checks that the user exists and finds a repeated entry, with one lookup.
    let resolved: AppScope | undefined;
    const only = this.only;
    const at =
      only && entry.identity_type === 'local_user' && !incremental ? only.users.keyIndex(entry.identity) : -1;
    if (at !== -1) {
      resolved = only;
      const first = this.firstEntry![at]!;
      if (first === 0) this.firstEntry![at] = i + 1;
      else
        ctx.error(duplicateMessage('identity_to_permissions entry', entry.identity, first - 1), 'identity');
    } else {
      this.seen.add(
        entry.identity,
        i,
        ctx,
        'identity',
        entry.operation,
        IDENTITY_TYPES.indexOf(entry.identity_type),
      );
    }
    if (!incremental && entry.operation)
      ctx.error('is only allowed when incremental_change is true', 'operation');
    if (entry.identity_type === 'idp' && options.knownIdentity && !options.knownIdentity(entry.identity)) {
      ctx.warn(
        `Cannot find identity by names ${JSON.stringify(entry.identity)}: no identity-provider user or group has this name, email or identity`,
        'identity',
      );
    }
    const grants = entry.application_permissions;
    if (grants) {
      for (let j = 0; j < grants.length; j++) {
        const grant = grants[j]!;
        const scope = this.scopeOf(grant.application, entry, resolved, 'application_permissions', j);
        if (!incremental && !this.permissions.has(grant.permission)) {
          ctx.error(
            `permission ${JSON.stringify(grant.permission)} does not exist in the top-level permissions`,
            'application_permissions',
            j,
            'permission',
          );
        }
        checkResourceRefs(grant.resources, scope, ctx, 'application_permissions', j);
      }
    }
    const assignments = entry.role_assignments;
    if (assignments) {
      for (let j = 0; j < assignments.length; j++) {
        const assignment = assignments[j]!;
        const scope = this.scopeOf(assignment.application, entry, resolved, 'role_assignments', j);
        if (scope && !scope.roles.has(assignment.role)) {
          ctx.error(
            `local role ${JSON.stringify(assignment.role)} does not exist in application ${JSON.stringify(assignment.application)}`,
            'role_assignments',
            j,
            'role',
          );
        }
        checkResourceRefs(assignment.resources, scope, ctx, 'role_assignments', j);
      }
    }
    path.pop();
  }

  /** The scope of `application` for one grant of `entry`, with the entry's identity checked in it. */
  private scopeOf(
    application: string,
    entry: IdentityToPermissions,
    resolved: AppScope | undefined,
    list: string,
    j: number,
  ): AppScope | undefined {
    let scope: AppScope | undefined;
    if (application === this.lastApp) scope = this.lastScope;
    else {
      scope = this.scopes.get(fold(application));
      this.lastApp = application;
      this.lastScope = scope;
    }
    if (!scope) {
      if (!this.incremental)
        this.ctx.error(
          `application ${JSON.stringify(application)} does not exist in this payload`,
          list,
          j,
          'application',
        );
      return undefined;
    }
    if (entry.identity_type === 'idp') scope.hasIdpIdentity = true;
    if (this.incremental) return undefined;
    if (scope !== resolved) checkLocalIdentity(entry, scope, this.ctx);
    return scope;
  }
}

function checkLocalIdentity(entry: IdentityToPermissions, scope: AppScope, ctx: CheckContext): void {
  const index =
    entry.identity_type === 'local_user'
      ? scope.users
      : entry.identity_type === 'local_group'
        ? scope.groups
        : undefined;
  if (index === scope.users && scope.usersUnknown === true) return;
  if (index && !index.has(entry.identity)) {
    const kind = entry.identity_type === 'local_user' ? 'local user' : 'local group';
    ctx.error(
      `${kind} ${JSON.stringify(entry.identity)} does not exist in application ${JSON.stringify(scope.app.name)}`,
      'identity',
    );
  }
}

function checkResourceRefs(
  refs: readonly string[] | null | undefined,
  scope: AppScope | undefined,
  ctx: CheckContext,
  list: string,
  j: number,
): void {
  if (!scope || !refs) return;
  refs.forEach((ref, k) => {
    if (!scope.resources.has(ref)) {
      ctx.error(
        `resource ${JSON.stringify(ref)} does not exist in application ${JSON.stringify(scope.app.name)} (name sub-resources as parent.child)`,
        list,
        j,
        'resources',
        k,
      );
    }
  });
}

/**
 * The shape checks of the collections the structural walk left to the semantic pass, for when the
 * rest of the payload is malformed and references cannot be resolved: every violation is still listed.
 */
export function checkDeferredShapes(p: unknown, ctx: CheckContext, incremental: boolean): void {
  if (typeof p !== 'object' || p === null) return;
  const { applications, identity_to_permissions: grants } = p as Record<string, unknown>;
  const walk = (list: unknown, check: ReturnType<typeof compile>, ...at: (string | number)[]) => {
    if (!Array.isArray(list) && !isStreamed(list)) return;
    ctx.path.push(...at);
    let i = 0;
    for (const item of list as Iterable<unknown>) {
      ctx.path.push(i++);
      check(item, ctx);
      ctx.path.pop();
    }
    ctx.path.length -= at.length;
  };
  const users = compile(localUserSchema, { partial: incremental });
  if (Array.isArray(applications)) {
    applications.forEach((app: unknown, i) => {
      if (typeof app === 'object' && app !== null)
        walk((app as Record<string, unknown>).local_users, users, 'applications', i, 'local_users');
    });
  }
  walk(grants, compile(identityToPermissionsSchema, { partial: incremental }), 'identity_to_permissions');
}
