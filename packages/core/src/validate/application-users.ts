/**
 * The local users of one application, one at a time: a million is usual, so no closures and no
 * allocations per user. A user is keyed by `id`, else `unique_id`, else `name`.
 */
import { localUserSchema, type LocalUser } from '../schemas/application.js';
import type { AppScope } from './application-scope.js';
import { compile, type Check } from './compile.js';
import { checkOperation, type CheckContext, type PathSegment } from './context.js';
import type { UnmatchedIdentities } from './identities.js';
import { localKeyField } from './local-keys.js';
import { checkCustomProperties } from './properties.js';
import type { EntityVisitor } from './visit.js';

/** The key field of a user, by the code `UserChecks` keeps per user. */
const KEY_FIELDS: readonly PathSegment[] = ['name', 'unique_id', 'id'];

export class UserChecks implements EntityVisitor<LocalUser> {
  private readonly checkShape: Check;
  private readonly where: string;
  /** Per user: 0 when keyed by name, 1 by unique id, 2 by id (for messages). */
  private keyField = new Uint8Array(0);

  constructor(
    private readonly scope: AppScope,
    private readonly appIndex: number,
    private readonly ctx: CheckContext,
    private readonly incremental: boolean,
    private readonly identities: UnmatchedIdentities,
  ) {
    // The structural walk left users to this visitor, so a streamed collection is read once.
    this.checkShape = compile(localUserSchema, { partial: incremental });
    this.where = `local_user_properties of application type ${JSON.stringify(scope.app.application_type)}`;
  }

  begin(): void {
    this.ctx.path.push('applications', this.appIndex, 'local_users');
  }

  end(): void {
    if (!this.incremental) this.scope.users.flush(this.ctx, (i) => KEY_FIELDS[this.keyField[i] ?? 0]!);
    this.ctx.path.length -= 3;
  }

  visit(u: LocalUser, i: number): void {
    const { ctx, scope, incremental } = this;
    const path = ctx.path;
    path.push(i);
    const before = ctx.errors.length;
    this.checkShape(u, ctx);
    if (ctx.errors.length !== before) {
      // Still known by its key, so that grants to it do not add errors of their own.
      if (isKeyed(u)) this.register(u, i);
      path.pop();
      return;
    }
    this.register(u, i);
    checkOperation(ctx, incremental, u.operation);
    if (u.custom_properties)
      checkCustomProperties(u.custom_properties, scope.userProperties, this.where, ctx);
    if (!incremental) {
      const groups = u.groups;
      if (groups) {
        for (let j = 0; j < groups.length; j++)
          if (!scope.groups.has(groups[j]!)) this.missing('local group', groups[j]!, 'groups', j);
      }
      const creds = u.access_creds;
      if (creds) {
        for (let j = 0; j < creds.length; j++)
          if (!scope.creds.has(creds[j]!))
            this.missing('local access credential', creds[j]!, 'access_creds', j);
      }
    }
    if (u.identities && this.identities.active) this.identities.checkAll(u.identities, ctx);
    path.pop();
  }

  private missing(kind: string, ref: string, field: string, j: number): void {
    this.ctx.error(
      `${kind} ${JSON.stringify(ref)} does not exist in application ${JSON.stringify(this.scope.app.name)}`,
      field,
      j,
    );
  }

  private register(u: LocalUser, i: number): void {
    const users = this.scope.users;
    const id = u.id ?? u.unique_id;
    if (this.incremental) {
      users.add(id ?? u.name, i, this.ctx, localKeyField(u), u.operation);
      if (id != null) alias(users, u, i, false);
      return;
    }
    // Repeated keys are reported when the last user has been seen (see `end`).
    users.addLater(id ?? u.name, i);
    if (id == null) return;
    if (i >= this.keyField.length) {
      const grown = new Uint8Array(Math.max(1024, 2 * this.keyField.length, i + 1));
      grown.set(this.keyField);
      this.keyField = grown;
    }
    this.keyField[i] = u.id != null ? 2 : 1;
    alias(users, u, i, true);
  }
}

/** Registers the other names of a user keyed by an id: its name, and a unique id beside an id. */
function alias(users: AppScope['users'], u: LocalUser, i: number, later: boolean): void {
  if (u.id != null && u.unique_id) {
    if (later) users.aliasLater(u.unique_id, i);
    else users.alias(u.unique_id, i);
  }
  if (later) users.aliasLater(u.name, i);
  else users.alias(u.name, i);
}

/** Whether a user that failed its shape check still has a usable name (and ids, if any). */
function isKeyed(u: unknown): u is LocalUser {
  if (typeof u !== 'object' || u === null) return false;
  const { name, unique_id: uid, id } = u as Record<string, unknown>;
  const optionalString = (x: unknown) => x === undefined || x === null || typeof x === 'string';
  return typeof name === 'string' && optionalString(uid) && optionalString(id);
}
