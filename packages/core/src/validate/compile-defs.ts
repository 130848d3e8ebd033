/**
 * What the two compilers of a zod schema share (`compile.ts`, which reports violations, and
 * `compile-predicate.ts`, which answers valid or not): the slice of zod 4's definitions they read, their
 * options, and zod's checks (length, format, refinements) as functions.
 */
import type * as z from 'zod';

// The slice of zod 4's internal definitions the compilers read.
export interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}
export interface CheckDef {
  check: string;
  [key: string]: unknown;
}
export type AnySchema = { _zod: { def: Def } };

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

/** The checks of a schema: its own (a format schema such as z.uuid() is its own check), then `checks`. */
export function checksOf(def: Def): CheckDef[] {
  const own = typeof def.check === 'string' ? [def as unknown as CheckDef] : [];
  return [...own, ...(def.checks ?? []).map((c) => c._zod.def)];
}

/** One zod check as a function returning a problem description, or undefined when it passes. */
export type Rule = (v: unknown) => string | undefined;

/** Compiles one zod check; refuses checks it does not know. */
export function compileCheck(def: CheckDef): Rule {
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
      const integer = isIntegerFormat(def);
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

/** Whether a number_format check asks for an integer. */
export function isIntegerFormat(def: CheckDef): boolean {
  return def.format === 'safeint' || def.format === 'int32' || def.format === 'uint32';
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

/** Whether a field of this schema may be left out. */
export function isOptional(schema: AnySchema): boolean {
  const t = schema._zod.def.type;
  return t === 'optional' || (t === 'nullable' && isOptional(schema._zod.def.innerType as AnySchema));
}

/**
 * A field's schema without its optional and nullable wrappers (those without checks of their own),
 * and whether null is then accepted: the checker of the inner schema runs only for other values.
 */
export function unwrapField(field: AnySchema): { inner: AnySchema; nullable: boolean } {
  let inner = field;
  let nullable = false;
  for (;;) {
    const t = inner._zod.def.type;
    if (t === 'optional' && !inner._zod.def.checks?.length) inner = inner._zod.def.innerType as AnySchema;
    else if (t === 'nullable' && !inner._zod.def.checks?.length) {
      nullable = true;
      inner = inner._zod.def.innerType as AnySchema;
    } else break;
  }
  return { inner, nullable };
}

const deferredIds = new WeakMap<object, number>();
let nextId = 0;

/** A key naming the options, so that checkers compiled with equal options are shared. */
export function optionsKey(options: CompileOptions): string {
  const ids = (options.deferred ?? []).map((d) => {
    let id = deferredIds.get(d);
    if (id === undefined) deferredIds.set(d, (id = ++nextId));
    return id;
  });
  return `${options.partial ? 'p' : 'f'}:${ids.join(',')}`;
}
