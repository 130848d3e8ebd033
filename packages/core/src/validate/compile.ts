/**
 * Compiles a zod schema into a structural checker that walks a value without allocating for valid
 * input. zod stays the only definition of every shape; this is a faster interpreter of the same
 * definition (a zod parse of a million users costs seconds, this walk a fraction of that), and a
 * property test keeps the two in agreement. Schema features the checker does not know are refused
 * when compiling, so it can never silently accept what zod would reject.
 */
import type * as z from 'zod';
import { isDeepFrozen } from '../internal/frozen.js';
import { isAsyncStreamed, isStreamed } from './collections.js';
import { type CheckContext, formatPath, kindOf } from './context.js';

/** Checks one value at the context's current path, reporting violations to the context. */
export type Check = (value: unknown, ctx: CheckContext) => void;

// The slice of zod 4's internal definitions this compiler reads.
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  [key: string]: unknown;
}
type AnySchema = { _zod: { def: Def } };

/** Compile options. */
export interface CompileOptions {
  /**
   * Accept objects with required fields missing, for incremental payloads, whose `modify` and
   * `delete` entries carry only some fields. Unknown keys and wrong types are still errors.
   */
  partial?: boolean;
  /**
   * Element schemas whose collections are only type-checked (array or iterable), not walked: the
   * caller checks their items itself, so a streamed collection is read once.
   */
  deferred?: readonly z.ZodType[];
}

interface Mode {
  partial: boolean;
  deferred: ReadonlySet<object>;
  cache: WeakMap<object, Check>;
}

const caches = new Map<string, WeakMap<object, Check>>();
let mode: Mode = { partial: false, deferred: new Set(), cache: new WeakMap() };

/** Returns the (memoized) checker of `schema`. */
export function compile(schema: z.ZodType, options: CompileOptions = {}): Check {
  const deferred = new Set<object>(options.deferred ?? []);
  const key = `${options.partial ? 'p' : 'f'}:${(options.deferred ?? []).map((d) => deferredIds.get(d) ?? register(d)).join(',')}`;
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new WeakMap()));
  // Compilation is synchronous, so the mode can live in module state for its duration.
  const previous = mode;
  mode = { partial: options.partial ?? false, deferred, cache };
  try {
    return compileSchema(schema as unknown as AnySchema);
  } finally {
    mode = previous;
  }
}

const deferredIds = new WeakMap<object, number>();
let nextId = 0;
function register(schema: object): number {
  deferredIds.set(schema, ++nextId);
  return nextId;
}

function compileSchema(schema: AnySchema): Check {
  const cache = mode.cache;
  const hit = cache.get(schema);
  if (hit) return hit;
  // Recursive schemas (sub-resources) reach themselves through z.lazy: hand out a forwarder first.
  const forward: Check = (v, ctx) => compiled(v, ctx);
  cache.set(schema, forward);
  const compiled = build(schema._zod.def);
  cache.set(schema, compiled);
  return compiled;
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
      const options: CompileOptions = { partial: mode.partial, deferred: [...mode.deferred] as z.ZodType[] };
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
  // A format schema such as z.uuid() is its own check; refinements come in `checks`.
  const own = typeof def.check === 'string' ? [compileCheck(def as unknown as CheckDef)] : [];
  const checks = [...own, ...(def.checks ?? []).map((c) => compileCheck(c._zod.def))];
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
  const own = typeof def.check === 'string' ? [compileCheck(def as unknown as CheckDef)] : [];
  const checks = [...own, ...(def.checks ?? []).map((c) => compileCheck(c._zod.def))];
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

/** One zod check as a function returning a problem description, or undefined when it passes. */
type Rule = (v: unknown) => string | undefined;

function compileCheck(def: CheckDef): Rule {
  const size = (v: unknown) => (v as { length: number }).length;
  switch (def.check) {
    case 'max_length': {
      const max = def.maximum as number;
      return (v) => (size(v) <= max ? undefined : `must have at most ${max} ${unit(v)}, got ${size(v)}`);
    }
    case 'min_length': {
      const min = def.minimum as number;
      return (v) => (size(v) >= min ? undefined : (message(def) ?? `must have at least ${min} ${unit(v)}`));
    }
    case 'length_equals': {
      const n = def.length as number;
      return (v) => (size(v) === n ? undefined : `must have exactly ${n} ${unit(v)}`);
    }
    case 'string_format': {
      const pattern = def.pattern as RegExp;
      const what = def.format === 'regex' ? `match ${String(pattern)}` : `be a valid ${String(def.format)}`;
      return (v) => (pattern.test(v as string) ? undefined : (message(def) ?? `must ${what}`));
    }
    case 'number_format': {
      const integer = def.format === 'safeint' || def.format === 'int32' || def.format === 'uint32';
      return (v) => (!integer || Number.isSafeInteger(v) ? undefined : 'must be an integer');
    }
    case 'greater_than': {
      const bound = def.value as number;
      const inclusive = def.inclusive as boolean;
      return (v) =>
        (inclusive ? (v as number) >= bound : (v as number) > bound)
          ? undefined
          : `must be ${inclusive ? 'at least' : 'greater than'} ${bound}`;
    }
    case 'less_than': {
      const bound = def.value as number;
      const inclusive = def.inclusive as boolean;
      return (v) =>
        (inclusive ? (v as number) <= bound : (v as number) < bound)
          ? undefined
          : `must be ${inclusive ? 'at most' : 'less than'} ${bound}`;
    }
    case 'custom': {
      const fn = def.fn as (v: unknown) => unknown;
      const text = message(def) ?? 'is invalid';
      return (v) => (fn(v) === true ? undefined : text);
    }
    default:
      throw new Error(`compile: zod check "${def.check}" is not supported by the structural checker`);
  }
}

function unit(v: unknown): string {
  return typeof v === 'string' ? 'characters' : 'items';
}

/** The custom message a schema author gave a check, if any. */
function message(def: CheckDef): string | undefined {
  const err = def.error;
  if (typeof err === 'string') return err;
  if (typeof err === 'function') {
    const out = (err as (issue: object) => unknown)({});
    if (typeof out === 'string') return out;
    if (out && typeof (out as { message?: unknown }).message === 'string')
      return (out as { message: string }).message;
  }
  return undefined;
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

function isOptional(schema: AnySchema): boolean {
  const t = schema._zod.def.type;
  return t === 'optional' || (t === 'nullable' && isOptional(schema._zod.def.innerType as AnySchema));
}

function buildObject(def: Def): Check {
  const shape = def.shape as Record<string, AnySchema>;
  const known: Record<string, Check> = Object.create(null) as Record<string, Check>;
  // Fields that may be null: their checker is the inner one, called only for other values.
  const nullable: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    let inner = field;
    for (;;) {
      const t = inner._zod.def.type;
      if (t === 'optional' && !inner._zod.def.checks?.length) inner = inner._zod.def.innerType as AnySchema;
      else if (t === 'nullable' && !inner._zod.def.checks?.length) {
        nullable[key] = true;
        inner = inner._zod.def.innerType as AnySchema;
      } else break;
    }
    known[key] = compileSchema(inner);
    if (!mode.partial && !isOptional(field)) required.push(key);
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
