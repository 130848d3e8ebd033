/**
 * Compiles a zod schema into a structural checker that walks a value without allocating for valid
 * input. zod stays the only definition of every shape; this is a faster interpreter of the same
 * definition (a zod parse of a million users costs seconds, this walk a fraction of that), and a
 * property test keeps the two in agreement. Schema features the checker does not know are refused
 * when compiling, so it can never silently accept what zod would reject.
 *
 * Each object, array and record is first given to a predicate generated for its schema
 * (`compile-predicate.ts`); the walk here runs only when that fails, to find every violation with
 * its path, so a valid payload is read by straight-line code alone.
 */
import type * as z from 'zod';
import { isDeepFrozen } from '../internal/frozen.js';
import {
  type AnySchema,
  checksOf,
  compileCheck,
  type CompileOptions,
  type Def,
  isOptional,
  optionsKey,
  type Rule,
  unwrapField,
} from './compile-defs.js';
import { compilePredicate } from './compile-predicate.js';
import { isAsyncStreamed, isStreamed } from './collections.js';
import { type CheckContext, formatPath, kindOf } from './context.js';

export type { CompileOptions } from './compile-defs.js';

/** Checks one value at the context's current path, reporting violations to the context. */
export type Check = (value: unknown, ctx: CheckContext) => void;

interface Mode {
  options: CompileOptions;
  deferred: ReadonlySet<object>;
  cache: WeakMap<object, Check>;
}

const caches = new Map<string, WeakMap<object, Check>>();
let mode: Mode = { options: {}, deferred: new Set(), cache: new WeakMap() };

/** Returns the (memoized) checker of `schema`. */
export function compile(schema: z.ZodType, options: CompileOptions = {}): Check {
  const key = optionsKey(options);
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new WeakMap()));
  // Compilation is synchronous, so the mode can live in module state for its duration.
  const previous = mode;
  mode = { options, deferred: new Set<object>(options.deferred ?? []), cache };
  try {
    return compileSchema(schema as unknown as AnySchema);
  } finally {
    mode = previous;
  }
}

function compileSchema(schema: AnySchema): Check {
  const cache = mode.cache;
  const hit = cache.get(schema);
  if (hit) return hit;
  // Recursive schemas (sub-resources) reach themselves through z.lazy: hand out a forwarder first.
  const forward: Check = (v, ctx) => compiled(v, ctx);
  cache.set(schema, forward);
  const compiled = withTest(schema, build(schema._zod.def));
  cache.set(schema, compiled);
  return compiled;
}

/**
 * An object, array or record is walked for its violations only when its generated test (see
 * `compile-predicate.ts`) fails: a valid one costs one straight-line pass, and an invalid one is
 * reported by the walk alone.
 */
function withTest(schema: AnySchema, walk: Check): Check {
  const t = schema._zod.def.type;
  if (t !== 'object' && t !== 'array' && t !== 'record') return walk;
  const test = compilePredicate(schema as unknown as z.ZodType, mode.options);
  return (v, ctx) => {
    if (!test(v)) walk(v, ctx);
  };
}

function build(def: Def): Check {
  switch (def.type) {
    case 'optional': {
      const inner = compileSchema(def.innerType as AnySchema);
      return (v, ctx) => (v === undefined ? undefined : inner(v, ctx));
    }
    case 'nullable': {
      const inner = compileSchema(def.innerType as AnySchema);
      return (v, ctx) => (v === null ? undefined : inner(v, ctx));
    }
    case 'lazy': {
      // Resolved on first use, in the mode this checker was compiled in.
      const options = mode.options;
      let inner: Check | undefined;
      return (v, ctx) => (inner ??= compile((def.getter as () => z.ZodType)(), options))(v, ctx);
    }
    case 'string':
      return stringCheck(def);
    case 'number':
      return withChecks(def, (v) => typeof v === 'number' && Number.isFinite(v), 'a number');
    case 'boolean':
      return withChecks(def, (v) => typeof v === 'boolean', 'a boolean');
    case 'unknown':
    case 'any':
      return withChecks(def, () => true, 'any value');
    case 'enum':
      return oneOf(def, Object.values(def.entries as Record<string, string | number>));
    case 'literal':
      return oneOf(def, def.values as unknown[]);
    case 'array':
      return buildArray(def);
    case 'object':
      return buildObject(def);
    case 'record':
      return buildRecord(def);
    case 'union':
      return buildUnion(def);
    default:
      throw new Error(`compile: zod type "${def.type}" is not supported by the structural checker`);
  }
}

/** A type test followed by the schema's own checks (length, format, refinements). */
function withChecks(def: Def, test: (v: unknown) => boolean, expected: string): Check {
  const checks: Rule[] = checksOf(def).map(compileCheck);
  if (checks.length === 0) {
    return (v, ctx) => {
      if (!test(v)) ctx.error(`must be ${expected}, got ${kindOf(v)}`);
    };
  }
  return (v, ctx) => {
    if (!test(v)) return ctx.error(`must be ${expected}, got ${kindOf(v)}`);
    for (const check of checks) {
      const problem = check(v);
      if (problem !== undefined) return ctx.error(problem);
    }
  };
}

/** Strings are most of a payload: one closure for the usual case of one or two rules. */
function stringCheck(def: Def): Check {
  const checks: Rule[] = checksOf(def).map(compileCheck);
  const wrongType = (v: unknown, ctx: CheckContext) => ctx.error(`must be a string, got ${kindOf(v)}`);
  const [first, second] = checks;
  if (checks.length === 1) {
    return (v, ctx) => {
      if (typeof v !== 'string') return wrongType(v, ctx);
      const problem = first!(v);
      if (problem !== undefined) ctx.error(problem);
    };
  }
  if (checks.length === 2) {
    return (v, ctx) => {
      if (typeof v !== 'string') return wrongType(v, ctx);
      const problem = first!(v) ?? second!(v);
      if (problem !== undefined) ctx.error(problem);
    };
  }
  return withChecks(def, (v) => typeof v === 'string', 'a string');
}

function oneOf(def: Def, values: unknown[]): Check {
  const allowed = new Set(values);
  const list = values.map((v) => String(v)).join(', ');
  if (def.checks?.length) throw new Error('compile: checks on enums and literals are not supported');
  return (v, ctx) => {
    if (!allowed.has(v))
      ctx.error(`must be one of: ${list}; got ${typeof v === 'string' ? JSON.stringify(v) : kindOf(v)}`);
  };
}

function buildArray(def: Def): Check {
  if (mode.deferred.has(def.element as object)) {
    // Async iterables too: `validateAsRead` checks their items as the serializer reads them.
    return (v, ctx) => {
      if (!Array.isArray(v) && !isStreamed(v) && !isAsyncStreamed(v))
        ctx.error(`must be an array, got ${kindOf(v)}`);
    };
  }
  const item = compileSchema(def.element as AnySchema);
  const checks = (def.checks ?? []).map((c) => compileCheck(c._zod.def));
  const passed = new WeakSet<object>();
  return (v, ctx) => {
    const path = ctx.path;
    // A deeply frozen array that passed once passes again: shared ones are checked once.
    const frozen = Object.isFrozen(v) && typeof v === 'object' && v !== null;
    if (frozen && passed.has(v)) return;
    const before = ctx.errors.length;
    if (!Array.isArray(v)) {
      // A streamed collection (the serializer's extension of JSON): walked once, like an array.
      if (!isStreamed(v)) return ctx.error(`must be an array, got ${kindOf(v)}`);
      let i = 0;
      for (const x of v) {
        path.push(i++);
        item(x, ctx);
        path.pop();
      }
      return;
    }
    for (const check of checks) {
      const problem = check(v);
      if (problem !== undefined) ctx.error(problem);
    }
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      item(v[i], ctx);
      path.pop();
    }
    if (frozen && ctx.errors.length === before && isDeepFrozen(v)) passed.add(v);
  };
}

function buildObject(def: Def): Check {
  const shape = def.shape as Record<string, AnySchema>;
  const known: Record<string, Check> = Object.create(null) as Record<string, Check>;
  // Fields that may be null: their checker is the inner one, called only for other values.
  const nullable: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const { inner, nullable: maybeNull } = unwrapField(field);
    if (maybeNull) nullable[key] = true;
    known[key] = compileSchema(inner);
    if (!mode.options.partial && !isOptional(field)) required.push(key);
  }
  const catchall = def.catchall as AnySchema | undefined;
  const strict = catchall?._zod.def.type === 'never';
  const allowedList = Object.keys(shape).join(', ');
  const passed = new WeakSet<object>();
  return (v, ctx) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return ctx.error(`must be an object, got ${kindOf(v)}`);
    // A deeply frozen object that passed once passes again: shared ones are checked once.
    const frozen = Object.isFrozen(v);
    if (frozen && passed.has(v)) return;
    const before = ctx.errors.length;
    const obj = v as Record<string, unknown>;
    const path = ctx.path;
    for (const key in obj) {
      const check = known[key];
      if (check === undefined) {
        if (strict) ctx.error(`is not an allowed field here; allowed: ${allowedList}`, key);
        continue;
      }
      const value = obj[key];
      if (value === undefined || (value === null && nullable[key] === true)) continue;
      path.push(key);
      check(value, ctx);
      path.pop();
    }
    for (const key of required) if (obj[key] === undefined) ctx.error('is required', key);
    if (frozen && ctx.errors.length === before && isDeepFrozen(v)) passed.add(v);
  };
}

function buildRecord(def: Def): Check {
  const keyCheck = compileSchema(def.keyType as AnySchema);
  const valueCheck = compileSchema(def.valueType as AnySchema);
  return (v, ctx) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return ctx.error(`must be an object, got ${kindOf(v)}`);
    const path = ctx.path;
    for (const key in v) {
      path.push(key);
      keyCheck(key, ctx);
      valueCheck((v as Record<string, unknown>)[key], ctx);
      path.pop();
    }
  };
}

function buildUnion(def: Def): Check {
  const options = (def.options as AnySchema[]).map((o) => compileSchema(o));
  const after = withChecks(def, () => true, '');
  return (v, ctx) => {
    let best: CheckContext['errors'] | undefined;
    let bestRank = Infinity;
    for (const option of options) {
      const before = ctx.errors.length;
      option(v, ctx);
      if (ctx.errors.length === before) return after(v, ctx);
      // Report the form the author most likely meant: one whose type matched (its errors lie deeper
      // than the union itself), and among those the one that failed on the fewest fields.
      const attempt = ctx.errors.splice(before);
      const here = formatPath(ctx.path);
      const rank = attempt.every((e) => e.field === here) ? Number.MAX_SAFE_INTEGER : attempt.length;
      if (rank < bestRank) [best, bestRank] = [attempt, rank];
    }
    ctx.errors.push(...(best ?? []));
  };
}
