/**
 * Validation that shares the serializer's one read of a payload's large collections. An application
 * payload with a million streamed users (or a directory's users fetched page by page) is otherwise
 * read twice (once to validate, once to push), and each read produces the users again.
 */
import { describeInvalidPayload, ValidationError, type Violation } from '../errors.js';
import type { ApplicationPayload, IdentityToPermissions } from '../schemas/application.js';
import type { HrisPayload } from '../schemas/hris.js';
import type { IdentityProviderPayload } from '../schemas/identity-provider.js';
import type { Template } from '../schemas/templates.js';
import { streamedKind } from '../serialize/json-values.js';
import { ApplicationChecks, type CollectionReader } from './application.js';
import { HrisChecks } from './hris.js';
import { IdentityProviderChecks } from './identity-provider.js';
import { visitAll, type EntityVisitor } from './visit.js';
import { isAsyncStreamed, isStreamed, type Collection } from './collections.js';
import { CheckContext } from './context.js';
import { checkShape, validate } from './index.js';
import type { SemanticOptions } from './options.js';

export interface ValidationAsRead {
  /**
   * What to serialize in place of the payload: the same JSON, whose streamed collections are
   * checked as the serializer reads them: an application's local users and identity_to_permissions
   * entries (`identity_to_permissions` may move after `applications`), an identity provider's users,
   * an hris's employees. Once they are all read, reading on throws a `ValidationError` listing every
   * violation if there is any, so a consumer never receives the whole payload.
   */
  readonly value: unknown;
  /** Violations found so far. */
  readonly errors: readonly Violation[];
  /** Warnings found so far; complete once `complete` is true. */
  readonly warnings: readonly Violation[];
  /** Whether every check has run: at once when nothing was left for the read, else after it. */
  readonly complete: boolean;
}

/**
 * Validates what it can of `payload` now and returns the value to serialize instead, which checks
 * the rest while it is read. When `errors` is not empty on return, the payload is invalid already
 * and `value` should not be sent. An identity provider's `users` and an hris's `employees` are
 * checked as they are read when they are streamed (an iterable or async iterable; a list is checked
 * at once), a reference to one read later (a `manager_id`) once the last has been read. Payloads
 * that are not plain objects are validated whole at once.
 *
 * @example
 * const checked = validateAsRead('application', payload);
 * if (checked.errors.length) throw new ValidationError('invalid', [...checked.errors]);
 * for await (const chunk of jsonChunks(checked.value)) send(chunk); // throws ValidationError before the end if a user is invalid
 */
export function validateAsRead(
  template: Template,
  payload: unknown,
  options: SemanticOptions = {},
): ValidationAsRead {
  if (template === 'identity_provider' || template === 'hris') {
    const field = template === 'hris' ? 'employees' : 'users';
    if (!isPlain(payload) || streamedKind(payload[field]) === undefined)
      return whole(template, payload, options);
    return entitiesAsRead(template, payload, field);
  }
  if (template !== 'application' || !isPlain(payload)) return whole(template, payload, options);
  const apps = (payload as { applications?: unknown }).applications;
  if (!Array.isArray(apps) || !apps.every(isPlain)) return whole(template, payload, options);

  const ctx = new CheckContext();
  const shaped = checkShape(template, payload, ctx) as ApplicationPayload | undefined;
  if (!shaped) return done(payload, ctx);
  const checks = new ApplicationChecks(shaped, ctx, options);
  // Users must be read before the grants that reference them: applications come first.
  const state = { complete: false };
  const pending: object[] = [];
  const wrappedUsers: (object | undefined)[] = [];
  let wrappedGrants: object | undefined;
  const grants = shaped.identity_to_permissions as Collection<IdentityToPermissions> | null | undefined;
  /** Invalid already: read what can be read now, so that every violation is listed. */
  const now: CollectionReader = {
    users: (_a, users, visitor) => {
      visitAll(readable(users), visitor, ctx);
      return true;
    },
    grants: (entries, visitor) => void visitAll(readable(entries), visitor, ctx),
  };
  /** Valid so far: the collections are read by the serializer, through wrappers. */
  const asRead: CollectionReader = {
    users: (a, users, visitor) => {
      if (!users) visitAll(undefined, visitor, ctx);
      else pending.push((wrappedUsers[a] = inspect(users, visitor, () => collectionEnded())));
      return true;
    },
    grants: (entries, visitor) => {
      if (!entries) visitAll(undefined, visitor, ctx);
      else pending.push((wrappedGrants = inspect(entries, visitor, () => collectionEnded())));
    },
  };
  let invalid = false;
  checks.sequence(() => {
    invalid = ctx.errors.length > 0;
    return invalid ? now : asRead;
  });
  if (invalid) {
    checks.finish();
    return done(payload, ctx);
  }
  const applications = shaped.applications.map((app, a) => {
    const users = wrappedUsers[a];
    return users === undefined ? app : { ...app, local_users: users };
  });
  // Same keys in the same order, except that identity_to_permissions follows applications.
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    if (key === 'applications') {
      value.applications = applications;
      if ('identity_to_permissions' in value) {
        delete value.identity_to_permissions;
        value.identity_to_permissions = wrappedGrants ?? grants;
      }
    } else if (key === 'identity_to_permissions') value.identity_to_permissions = wrappedGrants ?? grants;
    else value[key] = payload[key];
  }

  /** Called as each wrapped collection is read through; the last one finishes the checks. */
  let ended = 0;
  const collectionEnded = (): void => {
    if (++ended < pending.length) return;
    checks.finish();
    state.complete = true;
    throwIfInvalid('application', ctx);
  };
  if (pending.length === 0) {
    checks.finish();
    return done(value, ctx);
  }
  return {
    value,
    errors: ctx.errors,
    warnings: ctx.warnings,
    get complete() {
      return state.complete;
    },
  };
}

/**
 * The rules of a template whose one large collection (`field`) is visited between the rest and
 * `finish`: an identity provider's users, an hris's employees.
 */
interface EntityPhases {
  checkRest(): void;
  readonly visitor: EntityVisitor<unknown>;
  finish(): void;
}

function phases(template: 'identity_provider' | 'hris', payload: unknown, ctx: CheckContext): EntityPhases {
  if (template === 'hris') {
    const checks = new HrisChecks(payload as HrisPayload, ctx);
    return { checkRest: () => checks.checkRest(), visitor: checks, finish: () => checks.finish() };
  }
  const checks = new IdentityProviderChecks(payload as IdentityProviderPayload, ctx);
  return {
    checkRest: () => checks.checkRest(),
    visitor: checks.users,
    finish: () => checks.finish(),
  };
}

/**
 * `validateAsRead` of an identity provider whose `users`, or an hris whose `employees`, are
 * streamed (an iterable or async iterable): the rest is checked now, the entities as they are read.
 * A reference to an entity read later (a manager) is judged once the last one has been read.
 */
function entitiesAsRead(
  template: 'identity_provider' | 'hris',
  payload: Record<string, unknown>,
  field: 'users' | 'employees',
): ValidationAsRead {
  const ctx = new CheckContext();
  const shaped = checkShape(template, payload, ctx);
  if (!shaped) return done(payload, ctx);
  const checks = phases(template, shaped, ctx);
  checks.checkRest();
  const source = payload[field] as Collection<unknown> | AsyncIterable<unknown>;
  if (ctx.errors.length > 0) {
    // Invalid already: what can be read now is read, so that every violation is listed.
    visitAll(readable(source), checks.visitor, ctx);
    checks.finish();
    return done(payload, ctx);
  }
  const state = { complete: false };
  const read = inspect(source, checks.visitor, () => {
    checks.finish();
    state.complete = true;
    throwIfInvalid(template, ctx);
  });
  // The same keys in the same order.
  const value = { ...payload, [field]: read };
  return {
    value,
    errors: ctx.errors,
    warnings: ctx.warnings,
    get complete() {
      return state.complete;
    },
  };
}

/** Ends a read whose checks found violations: nobody may take what was serialized for a whole payload. */
function throwIfInvalid(template: Template, ctx: CheckContext): void {
  if (ctx.errors.length === 0) return;
  throw new ValidationError(describeInvalidPayload(template, ctx.errors), ctx.errors, {
    hints: ['the payload was not serialized to its end: whoever received part of it has no whole payload'],
  });
}

function whole(template: Template, payload: unknown, options: SemanticOptions): ValidationAsRead {
  const { errors, warnings } = validate(template, payload, options);
  return { value: payload, errors, warnings, complete: true };
}

function done(value: unknown, ctx: CheckContext): ValidationAsRead {
  return { value, errors: ctx.errors, warnings: ctx.warnings, complete: true };
}

/** A collection validate can read now: async ones are left unread. */
function readable<T>(
  c: Collection<T> | AsyncIterable<T> | null | undefined,
): Collection<T> | null | undefined {
  return isAsyncStreamed(c) ? undefined : c;
}

function isPlain(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return (
    (proto === Object.prototype || proto === null) && typeof (x as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** `source` (an iterable or async iterable) with `visitor` called on each entity as it is read. */
function inspect<T>(
  source: Collection<T> | AsyncIterable<T>,
  visitor: EntityVisitor<T>,
  onEnd: () => void,
): object {
  return isStreamed(source) || Array.isArray(source)
    ? new Inspected(source as Collection<T>, visitor, onEnd)
    : new InspectedAsync(source, visitor, onEnd);
}

/**
 * The visiting part of a collection read once through a visitor: `visitResult` takes each result of
 * the source's iterator, in order, and passes it on.
 */
class Visiting<T> {
  private read = false;
  private index = 0;

  constructor(
    private readonly visitor: EntityVisitor<T>,
    private readonly onEnd: () => void,
  ) {}

  /** Called when the collection is opened for reading: it may be read once. */
  open(): void {
    if (this.read) throw new Error('validateAsRead: a checked collection was read twice');
    this.read = true;
    this.visitor.begin();
  }

  /** Visits one result of the source's iterator (or ends the visit at its end), and returns it. */
  visitResult(r: IteratorResult<T>): IteratorResult<T> {
    if (r.done === true) {
      this.visitor.end();
      this.onEnd();
    } else {
      this.visitor.visit(r.value, this.index++);
    }
    return r;
  }
}

/** A collection whose entities go through a visitor as they are read; the serializer writes it as an array. */
class Inspected<T> implements Iterable<T> {
  private readonly visiting: Visiting<T>;

  constructor(
    private readonly source: Collection<T>,
    visitor: EntityVisitor<T>,
    onEnd: () => void,
  ) {
    this.visiting = new Visiting(visitor, onEnd);
  }

  [Symbol.iterator](): Iterator<T> {
    const visiting = this.visiting;
    visiting.open();
    const inner = this.source[Symbol.iterator]();
    return {
      next: (): IteratorResult<T> => visiting.visitResult(inner.next()),
      return(value?: unknown): IteratorResult<T> {
        inner.return?.(value);
        return { done: true, value: value as T };
      },
    };
  }
}

/** `Inspected` for an async iterable of entities (users fetched page by page, say). */
class InspectedAsync<T> implements AsyncIterable<T> {
  private readonly visiting: Visiting<T>;

  constructor(
    private readonly source: AsyncIterable<T>,
    visitor: EntityVisitor<T>,
    onEnd: () => void,
  ) {
    this.visiting = new Visiting(visitor, onEnd);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    const visiting = this.visiting;
    visiting.open();
    const inner = this.source[Symbol.asyncIterator]();
    return {
      next: async (): Promise<IteratorResult<T>> => visiting.visitResult(await inner.next()),
      async return(value?: unknown): Promise<IteratorResult<T>> {
        await inner.return?.(value);
        return { done: true, value: value as T };
      },
    };
  }
}
