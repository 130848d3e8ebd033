/**
 * The identity_to_permissions entries, one at a time (a million is usual: plain loops, one-entry
 * caches). Each entry's identity must exist in every application it is granted on: local users,
 * groups and access credentials by their key (`id`, else `unique_id`, else `name`) or name.
 */
import {
  IDENTITY_TYPES,
  identityToPermissionsSchema,
  type IdentityToPermissions,
} from '../schemas/application.js';
import { isDeepFrozen } from '../internal/frozen.js';
import type { AppScope } from './application-scope.js';
import { compile, type Check } from './compile.js';
import { checkOperation, type CheckContext } from './context.js';
import type { UnmatchedIdentities } from './identities.js';
import { duplicateMessage, fold, NameIndex } from './names.js';
import { checkCustomProperties } from './properties.js';
import type { EntityVisitor } from './visit.js';

export class GrantChecks implements EntityVisitor<IdentityToPermissions> {
  private readonly seen = new NameIndex('identity_to_permissions entry');
  private readonly checkShape: Check;
  private lastApp = '';
  private lastScope: AppScope | undefined;
  /** The application when the payload has exactly one. */
  private only: AppScope | undefined;
  /** Per user of `only` (by key position): 1 + the index of the entry naming it, or 0. */
  private firstEntry: Int32Array | undefined;
  /**
   * Deeply frozen role_assignments lists found valid for a local user of `only`: the builder gives
   * the users of one role one shared list, checked once instead of once per user.
   */
  private readonly validAssignments = new WeakSet<object>();

  constructor(
    private readonly scopes: Map<string, AppScope>,
    private readonly permissions: NameIndex,
    private readonly ctx: CheckContext,
    private readonly incremental: boolean,
    private readonly identities: UnmatchedIdentities,
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
    const { ctx, incremental } = this;
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
    checkOperation(ctx, incremental, entry.operation);
    if (entry.identity_type === 'idp') this.identities.check(entry.identity, ctx, 'identity');
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
    // Valid for one local user of the only application, such a list is valid for every other one.
    const shared = resolved !== undefined && entry.identity_type === 'local_user';
    if (assignments && !(shared && this.validAssignments.has(assignments))) {
      const errors = ctx.errors.length;
      for (let j = 0; j < assignments.length; j++) {
        const assignment = assignments[j]!;
        const scope = this.scopeOf(assignment.application, entry, resolved, 'role_assignments', j);
        if (!scope) continue;
        if (!scope.roles.has(assignment.role)) {
          ctx.error(
            `local role ${JSON.stringify(assignment.role)} does not exist in application ${JSON.stringify(assignment.application)}`,
            'role_assignments',
            j,
            'role',
          );
        }
        checkResourceRefs(assignment.resources, scope, ctx, 'role_assignments', j);
        if (assignment.custom_properties) {
          path.push('role_assignments', j);
          checkCustomProperties(
            assignment.custom_properties,
            scope.assignmentProperties,
            `role_assignment_properties of application type ${JSON.stringify(scope.app.application_type)}`,
            ctx,
          );
          path.length -= 2;
        }
      }
      if (shared && ctx.errors.length === errors && Object.isFrozen(assignments) && isDeepFrozen(assignments))
        this.validAssignments.add(assignments);
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

const LOCAL_KINDS = {
  local_user: 'local user',
  local_group: 'local group',
  local_access_creds: 'local access credential',
} as const;

/** Reports a local grantee that `scope` does not have (idp identities are not local). */
function checkLocalIdentity(entry: IdentityToPermissions, scope: AppScope, ctx: CheckContext): void {
  const type = entry.identity_type;
  if (type === 'idp') return;
  if (type === 'local_user' && scope.usersUnknown === true) return;
  const index = type === 'local_user' ? scope.users : type === 'local_group' ? scope.groups : scope.creds;
  if (!index.has(entry.identity)) {
    ctx.error(
      `${LOCAL_KINDS[type]} ${JSON.stringify(entry.identity)} does not exist in application ${JSON.stringify(scope.app.name)}`,
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
