/**
 * Semantic rules of the application template, run after the structural check passed. The rules of
 * each part live beside this file: `application-scope` (groups, roles, access credentials,
 * resources), `application-users`, `application-grants`.
 */
import {
  type ApplicationPayload,
  type ApplicationPropertyDefinition,
  type IdentityToPermissions,
  type LocalUser,
} from '../schemas/application.js';
import { GrantChecks } from './application-grants.js';
import { checkApplication, type AppScope } from './application-scope.js';
import { UserChecks } from './application-users.js';
import { toArray, type Collection } from './collections.js';
import { checkOperation, type CheckContext } from './context.js';
import { UnmatchedIdentities } from './identities.js';
import { fold, NameIndex } from './names.js';
import type { SemanticOptions } from './options.js';
import { IGNORE, visitAll, type EntityVisitor } from './visit.js';

/**
 * How {@link ApplicationChecks.sequence} reads the two collections that may be streamed: at once
 * (`validate()`), or by wrapping them so that the serializer's read drives the visitors
 * (`validateAsRead`).
 */
export interface CollectionReader {
  /** Reads, or arranges to read, application `a`'s local users; false when they cannot be read. */
  users(
    a: number,
    users: Collection<LocalUser> | null | undefined,
    visitor: EntityVisitor<LocalUser>,
  ): boolean;
  /** Reads, or arranges to read, the identity_to_permissions entries. */
  grants(
    grants: Collection<IdentityToPermissions> | null | undefined,
    visitor: EntityVisitor<IdentityToPermissions>,
  ): void;
}

/**
 * The application template's semantic rules in three phases: `checkRest` (everything but the local
 * users and the identity_to_permissions entries, which may be streamed), then the visitors of
 * `localUsers(a)` for each application and of `grants`, in that order, then `finish`. `sequence` is
 * the one orchestration of the first two phases, for every way of reading.
 */
export class ApplicationChecks {
  readonly grants: EntityVisitor<IdentityToPermissions>;
  private readonly incremental: boolean;
  private readonly permissions = new NameIndex('permission');
  private readonly identities: UnmatchedIdentities;
  /** Per application index: its scope, or undefined when its name repeats an earlier one. */
  private readonly scopeAt: (AppScope | undefined)[] = [];
  private readonly scopes = new Map<string, AppScope>();

  constructor(
    private readonly p: ApplicationPayload,
    private readonly ctx: CheckContext,
    options: SemanticOptions,
  ) {
    this.incremental = p.incremental_change === true;
    this.identities = new UnmatchedIdentities(options);
    this.grants = new GrantChecks(this.scopes, this.permissions, ctx, this.incremental, this.identities);
  }

  checkRest(): void {
    const { p, ctx, incremental, permissions } = this;
    // A definition without a type (the vendor SDK leaves an empty one out) is that of type "".
    const definitions = new Map<string, ApplicationPropertyDefinition>();
    for (const d of p.custom_property_definition?.applications ?? [])
      definitions.set(fold(d.application_type ?? ''), d);

    ctx.at('permissions', () =>
      toArray(p.permissions).forEach((perm, i) =>
        ctx.at(i, () => {
          permissions.add(perm.name, i, ctx, 'name', perm.operation);
          checkOperation(ctx, incremental, perm.operation);
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
          const scope = checkApplication({
            app,
            def: definitions.get(fold(app.application_type)),
            permissions,
            ctx,
            incremental,
            identities: this.identities,
          });
          this.scopeAt.push(scope);
          this.scopes.set(fold(app.name), scope);
        }),
      ),
    );
  }

  /**
   * Runs `checkRest`, then reads each application's local users and then the grants through the
   * reader that `reader` picks once the rest is checked (it may look at the errors found so far).
   * The caller runs `finish` once everything was read: at once for an in-memory read.
   */
  sequence(reader: () => CollectionReader): void {
    this.checkRest();
    const read = reader();
    toArray(this.p.applications).forEach((app, a) => {
      if (!read.users(a, app.local_users as Collection<LocalUser> | undefined, this.localUsers(a)))
        this.usersUnknown(a);
    });
    read.grants(this.p.identity_to_permissions as Collection<IdentityToPermissions> | undefined, this.grants);
  }

  /** The checks of the local users of the application at index `a` (none for a repeated name). */
  localUsers(a: number): EntityVisitor<LocalUser> {
    const scope = this.scopeAt[a];
    return scope ? new UserChecks(scope, a, this.ctx, this.incremental, this.identities) : IGNORE;
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
        scope.users.size + scope.groups.size + scope.roles.size + scope.creds.size === 0 &&
        !scope.hasIdpIdentity
      ) {
        this.ctx.error(
          'an application needs at least one identity: a local user, group, role or access credential, or an idp identity in identity_to_permissions',
          'applications',
          i,
        );
      }
    });
  }
}

/** Runs every application rule over a payload held in memory (or with re-iterable collections). */
export function checkApplicationPayload(
  p: ApplicationPayload,
  ctx: CheckContext,
  options: SemanticOptions,
): void {
  const checks = new ApplicationChecks(p, ctx, options);
  checks.sequence(() => ({
    users: (a, users, visitor) => visitAll(users, visitor, ctx, 'applications', a, 'local_users'),
    grants: (grants, visitor) => void visitAll(grants, visitor, ctx, 'identity_to_permissions'),
  }));
  checks.finish();
}
