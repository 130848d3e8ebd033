/**
 * Compiles a zod schema into a test: a function answering whether a value is valid, generated as
 * JavaScript source specialised to the schema. The object test of a local user is then one loop over
 * its keys with a `switch`, each plain field's type and rules (and short lists of strings) checked
 * in place, nested objects and records by their own generated tests, and no path kept. `compile.ts` runs this test first and walks a value for its violations only when it
 * fails, so a valid value costs one straight-line pass and the violations of an invalid one are
 * found by the same walk as ever.
 *
 * Only the shape's keys become source text, as JSON string literals; every other value the code
 * needs (refinement functions, patterns, sets of allowed values, the tests of nested objects) is
 * handed to the generated code as a parameter. Schema features the test does not know are refused
 * when compiling, like the checker's, and a property test holds both to zod.
 */
import type * as z from 'zod';
import { isDeepFrozen } from '../internal/frozen.js';
import {
  type AnySchema,
  checksOf,
  compileCheck,
  type CompileOptions,
  type Def,
  isIntegerFormat,
  isOptional,
  optionsKey,
  unwrapField,
} from './compile-defs.js';
import { isAsyncStreamed, isStreamed } from './collections.js';

/** Whether a value is valid under the schema it was compiled from. */
export type Predicate = (value: unknown) => boolean;

interface Mode {
  partial: boolean;
  deferred: ReadonlySet<object>;
  cache: WeakMap<object, Predicate>;
}

const caches = new Map<string, WeakMap<object, Predicate>>();
let mode: Mode = { partial: false, deferred: new Set(), cache: new WeakMap() };

/** Returns the (memoized) test of `schema`; the options are those of `compile`. */
export function compilePredicate(schema: z.ZodType, options: CompileOptions = {}): Predicate {
  const key = optionsKey(options);
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new WeakMap()));
  // Compilation is synchronous, so the mode can live in module state for its duration.
  const previous = mode;
  mode = { partial: options.partial ?? false, deferred: new Set<object>(options.deferred ?? []), cache };
  try {
    return testOf(schema as unknown as AnySchema);
  } finally {
    mode = previous;
  }
}

function testOf(schema: AnySchema): Predicate {
  const cache = mode.cache;
  const hit = cache.get(schema);
  if (hit) return hit;
  // Recursive schemas (sub-resources) reach themselves through z.lazy: hand out a forwarder first.
  cache.set(schema, (v) => generated(v));
  const generated = generate(schema);
  cache.set(schema, generated);
  return generated;
}

/** The source of one generated function, with the values it refers to. */
class Source {
  private readonly values: unknown[] = [];
  private temps = 0;

  /** The name under which the generated code sees `value` (values never become source text). */
  ref(value: unknown): string {
    this.values.push(value);
    return `r${this.values.length - 1}`;
  }

  /** A fresh local variable name. */
  temp(): string {
    return `x${this.temps++}`;
  }

  build(body: string): Predicate {
    const names = this.values.map((_, i) => `r${i}`);
    // The source is made of our own templates and JSON string literals of the schema's keys.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const factory = new Function(...names, `"use strict";\nreturn function test(v) {\n${body}\n};`) as (
      ...values: unknown[]
    ) => Predicate;
    return factory(...this.values);
  }
}

function generate(schema: AnySchema): Predicate {
  const def = schema._zod.def;
  const src = new Source();
  switch (def.type) {
    case 'object':
      return src.build(objectBody(def, src));
    case 'array':
      return src.build(arrayBody(def, src));
    case 'record':
      return src.build(recordBody(def, src));
    default:
      return src.build(`return ${inline(def, 'v', src)};`);
  }
}

/** A boolean expression testing the variable `x` against `schema`. */
function expr(schema: AnySchema, x: string, src: Source): string {
  const t = schema._zod.def.type;
  if (t === 'object' || t === 'array' || t === 'record') return `${src.ref(testOf(schema))}(${x})`;
  return inline(schema._zod.def, x, src);
}

/** The expression of a schema that is not an object, array or record: written out in place. */
function inline(def: Def, x: string, src: Source): string {
  switch (def.type) {
    case 'optional':
      return `(${x} === undefined || ${expr(def.innerType as AnySchema, x, src)})`;
    case 'nullable':
      return `(${x} === null || ${expr(def.innerType as AnySchema, x, src)})`;
    case 'lazy': {
      // Resolved on first use, in the mode this test was compiled in.
      const options: CompileOptions = { partial: mode.partial, deferred: [...mode.deferred] as z.ZodType[] };
      const getter = def.getter as () => z.ZodType;
      let inner: Predicate | undefined;
      const lazy: Predicate = (v) => (inner ??= compilePredicate(getter(), options))(v);
      return `${src.ref(lazy)}(${x})`;
    }
    case 'string':
      return all([`typeof ${x} === "string"`, ...rules(def, x, src)]);
    case 'number':
      return all([`typeof ${x} === "number"`, `Number.isFinite(${x})`, ...rules(def, x, src)]);
    case 'boolean':
      return all([`typeof ${x} === "boolean"`, ...rules(def, x, src)]);
    case 'unknown':
    case 'any':
      return all(rules(def, x, src));
    case 'enum':
      return oneOf(def, Object.values(def.entries as Record<string, string | number>), x, src);
    case 'literal':
      return oneOf(def, def.values as unknown[], x, src);
    case 'union': {
      const options = (def.options as AnySchema[]).map((o) => expr(o, x, src));
      return all([options.length ? `(${options.join(' || ')})` : 'false', ...rules(def, x, src)]);
    }
    default:
      throw new Error(`compile: zod type "${def.type}" is not supported by the structural checker`);
  }
}

function all(terms: string[]): string {
  return terms.length === 0 ? 'true' : `(${terms.join(' && ')})`;
}

/** A number as source text when it is a plain finite one, else by reference. */
function num(n: unknown, src: Source): string {
  return typeof n === 'number' && Number.isFinite(n) ? JSON.stringify(n) : src.ref(n);
}

/** The schema's checks (length, format, refinements) on `x`, as expressions. */
function rules(def: Def, x: string, src: Source): string[] {
  return checksOf(def).map((c) => {
    const rule = compileCheck(c); // refuses checks the checker does not know
    switch (c.check) {
      case 'max_length':
        return `${x}.length <= ${num(c.maximum, src)}`;
      case 'min_length':
        return `${x}.length >= ${num(c.minimum, src)}`;
      case 'length_equals':
        return `${x}.length === ${num(c.length, src)}`;
      case 'string_format':
        return `${src.ref(c.pattern)}.test(${x})`;
      case 'number_format':
        return isIntegerFormat(c) ? `Number.isSafeInteger(${x})` : 'true';
      case 'greater_than':
        return `${x} ${c.inclusive ? '>=' : '>'} ${num(c.value, src)}`;
      case 'less_than':
        return `${x} ${c.inclusive ? '<=' : '<'} ${num(c.value, src)}`;
      case 'custom':
        return `${src.ref(c.fn)}(${x}) === true`;
      default:
        return `${src.ref(rule)}(${x}) === undefined`;
    }
  });
}

function oneOf(def: Def, values: unknown[], x: string, src: Source): string {
  if (def.checks?.length) throw new Error('compile: checks on enums and literals are not supported');
  if (values.length === 0) return 'false';
  if (values.length <= 8 && values.every((v) => typeof v === 'string'))
    return `(${values.map((v) => `${x} === ${JSON.stringify(v)}`).join(' || ')})`;
  return `${src.ref(new Set(values))}.has(${x})`;
}

/** Deeply frozen values that passed once pass again: values shared between entities are tested once. */
function frozenPassed(src: Source): { enter: string; leave: string } {
  const passed = src.ref(new WeakSet<object>());
  return {
    enter: `const frozen = Object.isFrozen(v);\nif (frozen && ${passed}.has(v)) return true;`,
    leave: `if (frozen && ${src.ref(isDeepFrozen)}(v)) ${passed}.add(v);`,
  };
}

function objectBody(def: Def, src: Source): string {
  const shape = def.shape as Record<string, AnySchema>;
  const strict = (def.catchall as AnySchema | undefined)?._zod.def.type === 'never';
  const cases: string[] = [];
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const { inner, nullable } = unwrapField(field);
    const x = src.temp();
    const absent = nullable ? `${x} === undefined || ${x} === null` : `${x} === undefined`;
    cases.push(
      `case ${JSON.stringify(key)}: {\nconst ${x} = v[k];\n${shortList(inner, x, absent, src) ?? ''}if (!(${absent} || ${expr(inner, x, src)})) return false;\nbreak;\n}`,
    );
    if (!mode.partial && !isOptional(field)) required.push(key);
  }
  const frozen = frozenPassed(src);
  return [
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;',
    frozen.enter,
    'for (const k in v) {',
    'switch (k) {',
    ...cases,
    strict ? 'default: return false;' : 'default: break;',
    '}',
    '}',
    ...required.map((key) => `if (v[${JSON.stringify(key)}] === undefined) return false;`),
    frozen.leave,
    'return true;',
  ].join('\n');
}

/** Lists of strings (a user's groups) up to this long are tested in the object's own loop. */
const SHORT_LIST = 16;

/**
 * For a field holding a list of plain values without rules of its own: a short array tested in
 * place (no call, no frozen check), before the field's usual test, which then sees only the rest.
 */
function shortList(schema: AnySchema, x: string, absent: string, src: Source): string | undefined {
  const def = schema._zod.def;
  if (def.type !== 'array' || def.checks?.length || mode.deferred.has(def.element as object))
    return undefined;
  const t = (def.element as AnySchema)._zod.def.type;
  if (t === 'object' || t === 'array' || t === 'record' || t === 'lazy') return undefined;
  const y = src.temp();
  return [
    `if (!(${absent}) && Array.isArray(${x}) && ${x}.length <= ${SHORT_LIST}) {`,
    `for (let i = 0; i < ${x}.length; i++) {`,
    `const ${y} = ${x}[i];`,
    `if (!(${expr(def.element as AnySchema, y, src)})) return false;`,
    '}',
    'break;',
    '}\n',
  ].join('\n');
}

function arrayBody(def: Def, src: Source): string {
  const element = def.element as AnySchema;
  // Items the caller checks itself: an array or any iterable, as the checker accepts.
  if (mode.deferred.has(element))
    return `return Array.isArray(v) || ${src.ref(isStreamed)}(v) || ${src.ref(isAsyncStreamed)}(v);`;
  // Streamed collections are not tested: the checker walks them.
  const frozen = frozenPassed(src);
  const x = src.temp();
  return [
    'if (!Array.isArray(v)) return false;',
    frozen.enter,
    ...rules(def, 'v', src).map((r) => `if (!(${r})) return false;`),
    'for (let i = 0; i < v.length; i++) {',
    `const ${x} = v[i];`,
    `if (!(${expr(element, x, src)})) return false;`,
    '}',
    frozen.leave,
    'return true;',
  ].join('\n');
}

function recordBody(def: Def, src: Source): string {
  const x = src.temp();
  return [
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;',
    'for (const k in v) {',
    `if (!(${expr(def.keyType as AnySchema, 'k', src)})) return false;`,
    `const ${x} = v[k];`,
    `if (!(${expr(def.valueType as AnySchema, x, src)})) return false;`,
    '}',
    'return true;',
  ].join('\n');
}
