/**
 * Semantic rules of the identity_provider template, in phases so that the users (the collection
 * that grows with the directory, often streamed page by page) are read once: `checkRest` (domains,
 * apps, groups), the `users` visitor, then `finish` (managers named before their user was seen).
 */
import {
  idpUserSchema,
  type AppAssignment,
  type IdentityProviderPayload,
  type IdpUser,
} from '../schemas/identity-provider.js';
import { toArray } from './collections.js';
import { compile, type Check } from './compile.js';
import type { CheckContext } from './context.js';
import { findCycles, NameIndex } from './names.js';
import { checkCustomProperties } from './properties.js';
import { visitAll, type EntityVisitor } from './visit.js';

const keyOf = (e: { identity?: string | null | undefined; name: string }) => e.identity ?? e.name;

type Definitions = IdentityProviderPayload['custom_property_definition'];

/**
 * The identity_provider rules over a payload whose users may be streamed: `checkRest` first, then
 * the `users` visitor over every user in order, then `finish`. Groups and apps are known before the
 * first user; a `manager_id` may name a user read later, so those that name no user seen so far
 * are kept (index and id, not the user) and judged by `finish`.
 */
export class IdentityProviderChecks {
  readonly users: EntityVisitor<IdpUser>;
  private readonly incremental: boolean;
  private readonly defs: Definitions;
  private readonly apps = new NameIndex('app');
  private readonly groups = new NameIndex('group');
  private readonly userKeys = new NameIndex('user identity');
  /** Users (by index) whose manager had not been seen when they were read, and that manager's id. */
  private readonly laterManagers: { user: number[]; id: string[] } = { user: [], id: [] };

  constructor(
    private readonly p: IdentityProviderPayload,
    private readonly ctx: CheckContext,
  ) {
    this.incremental = p.incremental_change === true;
    this.defs = p.custom_property_definition;
    this.users = new IdpUserChecks(this, ctx, this.incremental);
  }

  /** Everything but the users. */
  checkRest(): void {
    const { p, ctx, defs, apps, groups } = this;
    const domains = toArray(p.domains);
    if (!this.incremental && domains.length !== 1) {
      ctx.error(`an identity provider has exactly one domain; got ${domains.length}`, 'domains');
    }
    ctx.at('domains', () =>
      domains.forEach((d, i) =>
        ctx.at(i, () => {
          this.notIncremental(d.operation);
          checkCustomProperties(d.custom_properties, defs?.domain_properties, 'domain_properties', ctx);
        }),
      ),
    );

    ctx.at('apps', () =>
      toArray(p.apps).forEach((a, i) =>
        ctx.at(i, () => {
          apps.add(a.id, i, ctx, 'id', a.operation);
          this.notIncremental(a.operation);
          checkCustomProperties(a.custom_properties, defs?.app_properties, 'app_properties', ctx);
        }),
      ),
    );

    const groupList = toArray(p.groups);
    groupList.forEach((g, i) =>
      ctx.at('groups', () =>
        ctx.at(i, () => void groups.add(keyOf(g), i, ctx, g.identity ? 'identity' : 'name', g.operation)),
      ),
    );
    const parents: number[][] = groupList.map(() => []);
    ctx.at('groups', () =>
      groupList.forEach((g, i) =>
        ctx.at(i, () => {
          this.notIncremental(g.operation);
          checkCustomProperties(g.custom_properties, defs?.group_properties, 'group_properties', ctx);
          this.checkAssignments(g.app_assignments);
          (g.groups ?? []).forEach((ref, j) => {
            const target = groups.get(ref.identity);
            if (target !== undefined) parents[i]!.push(target);
            else if (!this.incremental) this.unknownGroup(ref.identity, j);
          });
        }),
      ),
    );
    for (const cycle of findCycles(parents)) {
      const names = [...cycle, cycle[0]!].map((i) => JSON.stringify(groupList[i]!.name)).join(' -> ');
      ctx.error(`group nesting has a cycle: ${names}`, 'groups', cycle[0]!, 'groups');
    }
  }

  /** The checks of the user at index `i` (its shape has been checked), at its path. */
  checkUser(u: IdpUser, i: number): void {
    const { ctx, defs } = this;
    this.userKeys.add(keyOf(u), i, ctx, u.identity ? 'identity' : 'name', u.operation);
    this.notIncremental(u.operation);
    checkCustomProperties(u.custom_properties, defs?.user_properties, 'user_properties', ctx);
    this.checkAssignments(u.app_assignments);
    if (this.incremental) return;
    const manager = u.manager_id;
    if (manager && !this.userKeys.has(manager)) {
      this.laterManagers.user.push(i);
      this.laterManagers.id.push(manager);
    }
    const groups = u.groups;
    if (groups) {
      for (let j = 0; j < groups.length; j++) {
        const ref = groups[j]!.identity;
        if (!this.groups.has(ref)) this.unknownGroup(ref, j);
      }
    }
  }

  /** Registers a user whose shape is wrong but whose key can be read, so managers naming it resolve. */
  registerKey(u: IdpUser, i: number): void {
    this.userKeys.add(keyOf(u), i, this.ctx, u.identity ? 'identity' : 'name', u.operation);
  }

  /** The rules that need every user seen: each `manager_id` names a user. */
  finish(): void {
    const { user, id } = this.laterManagers;
    for (let k = 0; k < user.length; k++) {
      if (this.userKeys.has(id[k]!)) continue;
      this.ctx.error(
        `manager ${JSON.stringify(id[k])} is not the identity of a user in users`,
        'users',
        user[k]!,
        'manager_id',
      );
    }
    user.length = 0;
    id.length = 0;
  }

  private notIncremental(op: unknown): void {
    if (!this.incremental && op)
      this.ctx.error('is only allowed when incremental_change is true', 'operation');
  }

  private unknownGroup(identity: string, j: number): void {
    this.ctx.error(`group ${JSON.stringify(identity)} does not exist in groups`, 'groups', j, 'identity');
  }

  private checkAssignments(list: readonly AppAssignment[] | null | undefined): void {
    const { ctx, defs } = this;
    (list ?? []).forEach((a, j) => {
      if (!this.incremental && !this.apps.has(a.app_id))
        ctx.error(`app ${JSON.stringify(a.app_id)} does not exist in apps`, 'app_assignments', j, 'app_id');
      if (a.custom_properties)
        ctx.at('app_assignments', () =>
          ctx.at(j, () =>
            checkCustomProperties(
              a.custom_properties,
              defs?.app_assignment_properties,
              'app_assignment_properties',
              ctx,
            ),
          ),
        );
    });
  }
}

/** The users, one at a time: the shape of each (left to this pass by `checkShape`), then its rules. */
class IdpUserChecks implements EntityVisitor<IdpUser> {
  private readonly checkShape: Check;

  constructor(
    private readonly checks: IdentityProviderChecks,
    private readonly ctx: CheckContext,
    incremental: boolean,
  ) {
    this.checkShape = compile(idpUserSchema, { partial: incremental });
  }

  begin(): void {
    this.ctx.path.push('users');
  }

  end(): void {
    this.ctx.path.pop();
  }

  visit(u: IdpUser, i: number): void {
    const ctx = this.ctx;
    ctx.path.push(i);
    const before = ctx.errors.length;
    this.checkShape(u, ctx);
    if (ctx.errors.length === before) this.checks.checkUser(u, i);
    // Still known by its key, so that managers naming it do not add errors of their own.
    else if (isKeyed(u)) this.checks.registerKey(u, i);
    ctx.path.pop();
  }
}

/** Whether a user that failed its shape check still has a usable key. */
function isKeyed(u: unknown): u is IdpUser {
  if (typeof u !== 'object' || u === null) return false;
  const { name, identity } = u as Record<string, unknown>;
  return (
    typeof name === 'string' && (identity === undefined || identity === null || typeof identity === 'string')
  );
}

/** Runs every identity_provider rule over a payload held in memory (or with re-iterable users). */
export function checkIdentityProviderPayload(p: IdentityProviderPayload, ctx: CheckContext): void {
  const checks = new IdentityProviderChecks(p, ctx);
  checks.checkRest();
  visitAll(p.users, checks.users, ctx, 'users');
  checks.finish();
}
