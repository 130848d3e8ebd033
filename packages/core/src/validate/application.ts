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
import { compile } from './compile.js';
import { isStreamed, toArray, type Collection } from './collections.js';
import type { CheckContext } from './context.js';
import { ResourceIndex } from './application-resources.js';
import { findCycles, fold, NameIndex } from './names.js';
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
}

const keyOf = (e: { unique_id?: string | null | undefined; name: string }) => e.unique_id ?? e.name;

export function checkApplicationPayload(
  p: ApplicationPayload,
  ctx: CheckContext,
  options: SemanticOptions,
): void {
  const incremental = p.incremental_change === true;
  const definitions = new Map<string, Definition>();
  for (const d of p.custom_property_definition?.applications ?? [])
    definitions.set(fold(d.application_type), d);

  const permissions = new NameIndex('permission');
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
  const scopes = new Map<string, AppScope>();
  const applications = toArray(p.applications);
  ctx.at('applications', () =>
    applications.forEach((app, i) =>
      ctx.at(i, () => {
        if (!apps.add(app.name, i, ctx, 'name', app.operation)) return;
        scopes.set(
          fold(app.name),
          checkApplication(
            app,
            definitions.get(fold(app.application_type)),
            permissions,
            ctx,
            incremental,
            options,
          ),
        );
      }),
    ),
  );

  ctx.at('identity_to_permissions', () =>
    checkIdentityToPermissions(
      p.identity_to_permissions ?? [],
      scopes,
      permissions,
      ctx,
      incremental,
      options,
    ),
  );

  if (incremental) return;
  applications.forEach((app, i) => {
    const scope = scopes.get(fold(app.name));
    if (
      scope &&
      scope.app === app &&
      scope.users.size + scope.groups.size + scope.roles.size === 0 &&
      !scope.hasIdpIdentity
    ) {
      ctx.error(
        'an application needs at least one identity: a local user, local group, local role, or an idp identity in identity_to_permissions',
        'applications',
        i,
      );
    }
  });
}

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

  const users = new NameIndex('local user');
  const userDefs = def?.local_user_properties;
  const userWhere = `local_user_properties of application type ${type}`;
  path.push('local_users');
  let i = 0;
  const checkShape = compile(localUserSchema, { partial: incremental });
  for (const u of (app.local_users ?? []) as Collection<LocalUser>) {
    path.push(i++);
    // The structural walk left users to this loop, so a streamed collection is read once.
    const before = ctx.errors.length;
    checkShape(u, ctx);
    if (ctx.errors.length !== before) {
      path.pop();
      continue;
    }
    users.add(u.unique_id ?? u.name, i - 1, ctx, u.unique_id ? 'unique_id' : 'name', u.operation);
    if (u.unique_id) users.alias(u.name, i - 1);
    if (u.operation) notIncremental(u.operation);
    if (u.custom_properties) checkCustomProperties(u.custom_properties, userDefs, userWhere, ctx);
    const refs = u.groups;
    if (refs && !incremental) {
      for (let j = 0; j < refs.length; j++) {
        if (!groups.has(refs[j]!))
          ctx.error(
            `local group ${JSON.stringify(refs[j])} does not exist in application ${JSON.stringify(app.name)}`,
            'groups',
            j,
          );
      }
    }
    if (options.knownIdentity && u.identities) checkIdentities(u.identities, ctx, options);
    path.pop();
  }
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
  resources.walk(app.resources ?? [], [], ctx);
  path.pop();

  return { app, users, groups, roles, resources, hasIdpIdentity: false };
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

function checkIdentityToPermissions(
  entries: Collection<IdentityToPermissions>,
  scopes: Map<string, AppScope>,
  permissions: NameIndex,
  ctx: CheckContext,
  incremental: boolean,
  options: SemanticOptions,
): void {
  const seen = new NameIndex('identity_to_permissions entry');
  const path = ctx.path;
  // A million entries is usual: plain loops and one-entry caches, no closures per entry.
  let lastApp = '';
  let lastScope: AppScope | undefined;
  const scopeOf = (
    application: string,
    entry: IdentityToPermissions,
    list: string,
    j: number,
  ): AppScope | undefined => {
    let scope: AppScope | undefined;
    if (application === lastApp) scope = lastScope;
    else {
      scope = scopes.get(fold(application));
      [lastApp, lastScope] = [application, scope];
    }
    if (!scope) {
      if (!incremental)
        ctx.error(
          `application ${JSON.stringify(application)} does not exist in this payload`,
          list,
          j,
          'application',
        );
      return undefined;
    }
    if (entry.identity_type === 'idp') scope.hasIdpIdentity = true;
    if (incremental) return undefined;
    checkLocalIdentity(entry, scope, ctx);
    return scope;
  };
  let i = 0;
  const checkShape = compile(identityToPermissionsSchema, { partial: incremental });
  for (const entry of entries) {
    path.push(i);
    const before = ctx.errors.length;
    checkShape(entry, ctx);
    if (ctx.errors.length !== before) {
      path.pop();
      i++;
      continue;
    }
    seen.add(
      entry.identity,
      i,
      ctx,
      'identity',
      entry.operation,
      IDENTITY_TYPES.indexOf(entry.identity_type),
    );
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
        const scope = scopeOf(grant.application, entry, 'application_permissions', j);
        if (!incremental && !permissions.has(grant.permission)) {
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
        const scope = scopeOf(assignment.application, entry, 'role_assignments', j);
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
    i++;
  }
}

function checkLocalIdentity(entry: IdentityToPermissions, scope: AppScope, ctx: CheckContext): void {
  const index =
    entry.identity_type === 'local_user'
      ? scope.users
      : entry.identity_type === 'local_group'
        ? scope.groups
        : undefined;
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
