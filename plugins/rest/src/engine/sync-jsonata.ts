/**
 * A synchronous evaluator for the JSONata a manifest usually writes.
 *
 * The `jsonata` package evaluates every node of an expression with `await`, and walks its whole
 * frame chain on each node for debugging hooks: a mapping of a few dozen nodes costs about 100 µs
 * a record, ten times what a hand-written connector spends. This module turns the syntax tree that
 * `jsonata` parsed into plain closures that run without awaiting, for the node kinds and built-in
 * functions listed below, with JSONata's own rules for sequences, singletons, filters, grouping and
 * argument signatures. It is an evaluator of the same language, not a language of its own: the
 * parse is jsonata's, and
 * - an expression with any other node kind or function is not compiled here (`compileSync` gives
 *   undefined), and the caller evaluates it with `jsonata`;
 * - an evaluation that meets something it does not handle the same way (a type error, a function
 *   that answers with a promise, a regular expression that matches nothing forever) throws
 *   `NEEDS_JSONATA`, and the caller evaluates that one with `jsonata`, which gives its own result or
 *   its own error.
 * A test runs every expression of the shipped manifests, and a set of expressions written to reach
 * the corner cases, through both evaluators on generated records and compares what they give.
 */
import type jsonata from 'jsonata';

/** Thrown when an evaluation must be left to `jsonata` (it gives the real result or error). */
export const NEEDS_JSONATA: unique symbol = Symbol('needs jsonata');

function bail(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a marker, caught by the caller
  throw NEEDS_JSONATA;
}

/** A node of jsonata's processed syntax tree; its fields depend on `type`. */
interface Node {
  type: string;
  value?: unknown;
  steps?: Node[];
  stages?: { type: string; expr: Node }[];
  predicate?: { type: string; expr: Node }[];
  group?: { lhs: [Node, Node][] };
  keepArray?: boolean;
  keepSingletonArray?: boolean;
  consarray?: boolean;
  expressions?: Node[];
  expression?: Node;
  lhs?: Node | [Node, Node][];
  rhs?: Node;
  condition?: Node;
  then?: Node;
  else?: Node;
  procedure?: Node;
  arguments?: Node[];
  body?: Node;
  signature?: unknown;
  thunk?: boolean;
  tuple?: boolean;
  focus?: unknown;
  index?: unknown;
  ancestor?: unknown;
  seekingParent?: unknown;
}

// Flags JSONata keeps on arrays: a sequence (a result of several values, flattened by paths and
// unwrapped when it holds one), one to keep as an array (`[]` after a step), and an array that an
// array constructor made (never flattened into its path).
const SEQ = Symbol('sequence');
const KEEP = Symbol('keep singleton');
const CONS = Symbol('constructed');

type Flagged = unknown[] & { [SEQ]?: true; [KEEP]?: true; [CONS]?: true };

function sequence(...items: unknown[]): Flagged {
  const s = items as Flagged;
  s[SEQ] = true;
  return s;
}

function isSequence(value: unknown): value is Flagged {
  return Array.isArray(value) && (value as Flagged)[SEQ] === true;
}

/** A function value of this evaluator: a lambda written in the expression, a regular expression, a built-in. */
abstract class Callable {}

class Lambda extends Callable {
  constructor(
    readonly params: string[],
    readonly body: Evaluator,
    readonly input: unknown,
    readonly scope: Scope,
  ) {
    super();
  }
}

class Regex extends Callable {
  constructor(readonly re: RegExp) {
    super();
  }
}

class Builtin extends Callable {
  constructor(
    readonly name: string,
    readonly call: (args: unknown[], input: unknown) => unknown,
  ) {
    super();
  }
}

/**
 * Whether a value is a function. Values come from records (JSON), the caller's bindings (plain
 * functions) and this evaluator (`Callable`); jsonata's own function objects never reach it.
 */
function isFunctionValue(value: unknown): boolean {
  return typeof value === 'function' || value instanceof Callable;
}

/** Variables in scope: a block's, a lambda's, and at the root the bindings and the built-ins. */
class Scope {
  // A frame binds a few names: two short lists are faster to make and search than a Map.
  private names: string[] | undefined;
  private values: unknown[] | undefined;
  /** The caller's bindings, reachable from every frame. */
  readonly top: Record<string, unknown>;
  constructor(
    private readonly parent: Scope | undefined,
    private readonly root?: Record<string, unknown>,
  ) {
    this.top = root ?? parent!.top;
  }

  bind(name: string, value: unknown): void {
    if (this.names === undefined) {
      this.names = [name];
      this.values = [value];
      return;
    }
    const i = this.names.indexOf(name);
    if (i >= 0) this.values![i] = value;
    else {
      this.names.push(name);
      this.values!.push(value);
    }
  }

  lookup(name: string): unknown {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- walking the chain
    let scope: Scope | undefined = this;
    while (scope !== undefined) {
      const names = scope.names;
      if (names !== undefined) {
        const i = names.indexOf(name);
        if (i >= 0) return scope.values![i];
      }
      const root = scope.root;
      if (root !== undefined) {
        const v = root[name];
        if (v !== undefined || Object.prototype.hasOwnProperty.call(root, name)) return v;
      }
      scope = scope.parent;
    }
    return BUILTINS.get(name);
  }
}

type Evaluator = (input: unknown, scope: Scope) => unknown;

// ---------------------------------------------------------------------------------------------
// Values, as JSONata judges them.

function isNumeric(value: unknown): value is number {
  if (typeof value !== 'number' || Number.isNaN(value)) return false;
  if (!Number.isFinite(value)) bail();
  return true;
}

/** JSONata's effective boolean value; undefined stays undefined. */
function toBoolean(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 1) return toBoolean(value[0]);
    return value.length > 1 && value.some((v) => toBoolean(v) === true);
  }
  if (typeof value === 'string') return value.length > 0;
  if (isNumeric(value)) return value !== 0;
  if (typeof value === 'boolean') return value;
  if (value !== null && typeof value === 'object' && !isFunctionValue(value))
    return Object.keys(value).length > 0;
  return false;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  const ak = Object.getOwnPropertyNames(a).sort();
  const bk = Object.getOwnPropertyNames(b).sort();
  if (ak.length !== bk.length) return false;
  for (let i = 0; i < ak.length; i++) if (ak[i] !== bk[i]) return false;
  for (const k of ak)
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** `$append`: undefined disregarded, single values made lists. */
function append(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  // What `concat` gives (a plain array), copied by hand: `concat` is slow on flagged arrays.
  const out: unknown[] = [];
  if (Array.isArray(a)) for (const x of a as unknown[]) out.push(x);
  else out.push(a);
  if (Array.isArray(b)) for (const x of b as unknown[]) out.push(x);
  else out.push(b);
  return out;
}

/** A field of a value; over a list, every item's field, flattened into one sequence. */
function field(input: unknown, key: string): unknown {
  if (Array.isArray(input)) {
    const out = sequence();
    for (const item of input) {
      const v = field(item, key);
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) out.push(x);
      else out.push(v);
    }
    return out;
  }
  if (input === null || typeof input !== 'object' || input instanceof Callable) return undefined;
  const v = (input as Record<string, unknown>)[key];
  if (v === undefined) return undefined;
  // Only own fields: what a plain object inherits is a function (or `__proto__`).
  if ((typeof v === 'function' || key === '__proto__') && !Object.prototype.hasOwnProperty.call(input, key))
    return undefined;
  return v;
}

/** `$string`: JSON for anything that is not a string, numbers to 15 significant digits. */
function stringOf(value: unknown, prettify = false): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (isFunctionValue(value)) return '';
  if (typeof value === 'number' && !Number.isFinite(value)) bail();
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (v !== undefined && v !== null && isNumeric(v))
        return Number.isInteger(v) ? v : Number(v.toPrecision(15));
      return isFunctionValue(v) ? '' : v;
    },
    prettify ? 2 : 0,
  );
}

// ---------------------------------------------------------------------------------------------
// Built-in functions. Each checks its arguments as its JSONata signature would; whatever the
// signature would refuse (or convert in a way not written here) is left to jsonata.

/** The single argument of a function whose signature lets the context stand in for it (`-`). */
function contextual(args: unknown[], input: unknown, max = 1): unknown {
  if (args.length > max) bail();
  return args.length === 0 ? input : args[0];
}

function stringArg(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') bail();
  return value;
}

function exactly(args: unknown[], n: number): void {
  if (args.length !== n) bail();
}

const BUILTIN_LIST: Builtin[] = [
  new Builtin('lowercase', (args, input) => stringArg(contextual(args, input))?.toLowerCase()),
  new Builtin('uppercase', (args, input) => stringArg(contextual(args, input))?.toUpperCase()),
  new Builtin('trim', (args, input) => {
    const s = stringArg(contextual(args, input));
    if (s === undefined) return undefined;
    let out = s.replace(/[ \t\n\r]+/gm, ' ');
    if (out.startsWith(' ')) out = out.slice(1);
    if (out.endsWith(' ')) out = out.slice(0, -1);
    return out;
  }),
  new Builtin('string', (args, input) => {
    if (args.length > 2) bail();
    const value = args.length === 0 ? input : args[0];
    const prettify = args[1];
    if (prettify !== undefined && typeof prettify !== 'boolean') bail();
    return stringOf(value, prettify === true);
  }),
  new Builtin('not', (args, input) => {
    const v = contextual(args, input);
    if (isFunctionValue(v)) bail();
    return v === undefined ? undefined : !toBoolean(v);
  }),
  new Builtin('boolean', (args, input) => {
    const v = contextual(args, input);
    if (isFunctionValue(v)) bail();
    return toBoolean(v);
  }),
  new Builtin('exists', (args) => {
    exactly(args, 1);
    return args[0] !== undefined;
  }),
  new Builtin('type', (args) => {
    exactly(args, 1);
    const v = args[0];
    if (v === undefined) return undefined;
    if (v === null) return 'null';
    if (isNumeric(v)) return 'number';
    if (typeof v === 'string') return 'string';
    if (typeof v === 'boolean') return 'boolean';
    if (Array.isArray(v)) return 'array';
    if (isFunctionValue(v)) return 'function';
    return 'object';
  }),
  new Builtin('count', (args) => {
    exactly(args, 1);
    const v = args[0];
    if (v === undefined) return 0;
    if (isFunctionValue(v)) bail();
    return Array.isArray(v) ? v.length : 1;
  }),
  new Builtin('append', (args) => {
    exactly(args, 2);
    if (args.some(isFunctionValue)) bail();
    return append(args[0], args[1]);
  }),
  new Builtin('distinct', (args) => {
    exactly(args, 1);
    const v = args[0];
    if (v === undefined) return undefined;
    if (isFunctionValue(v)) bail();
    if (!Array.isArray(v) || v.length <= 1) return v;
    const out: unknown[] = isSequence(v) ? sequence() : [];
    for (const item of v) if (!out.some((seen) => deepEqual(item, seen))) out.push(item);
    return out;
  }),
  new Builtin('substring', (args, input) => {
    if ((args.length === 1 || args.length === 2) && typeof args[0] === 'number') args = [input, ...args];
    if (args.length < 2 || args.length > 3) bail();
    const [str, start, length] = args;
    if (typeof start !== 'number' || (length !== undefined && typeof length !== 'number')) bail();
    const chars = stringArg(str);
    if (chars === undefined) return undefined;
    // Characters are code points, as jsonata counts them.
    const list = Array.from(chars);
    const from = list.length + start < 0 ? 0 : start;
    if (length === undefined) return list.slice(from).join('');
    if (length <= 0) return '';
    return list.slice(from, from >= 0 ? from + length : list.length + from + length).join('');
  }),
  new Builtin('join', (args) => {
    if (args.length < 1 || args.length > 2) bail();
    const [list, separator] = args;
    if (list === undefined) return undefined;
    const items = Array.isArray(list) ? list : [list];
    if (!items.every((s) => typeof s === 'string')) bail();
    if (separator !== undefined && typeof separator !== 'string') bail();
    return items.join(separator ?? '');
  }),
  new Builtin('lookup', (args, input) => {
    if (args.length === 1) args = [input, args[0]];
    exactly(args, 2);
    const [object, key] = args;
    if ((key !== undefined && typeof key !== 'string') || isFunctionValue(object)) bail();
    // jsonata looks a missing key up as the field "undefined".
    return field(object, key ?? 'undefined');
  }),
  new Builtin('match', (args, input) => {
    if (args.length === 1 || (args.length === 2 && typeof args[1] === 'number')) args = [input, ...args];
    if (args.length < 2 || args.length > 3) bail();
    const [text, matcher, limit] = args;
    if (!(matcher instanceof Regex)) bail();
    if (text === undefined) return undefined;
    if (typeof text !== 'string') bail();
    if (limit !== undefined && typeof limit !== 'number') bail();
    if (typeof limit === 'number' && limit < 0) bail();
    const out = sequence();
    if (limit === 0) return out;
    const re = matcher.re;
    re.lastIndex = 0;
    let found = re.exec(text);
    while (found !== null && (limit === undefined || out.length < limit)) {
      out.push({ match: found[0], index: found.index, groups: found.slice(1) });
      if (re.lastIndex >= text.length) break;
      const from = re.lastIndex;
      re.lastIndex = from;
      found = re.exec(text);
      if (found?.[0] === '') bail();
    }
    return out;
  }),
];

const BUILTINS = new Map(BUILTIN_LIST.map((b) => [b.name, b]));

// ---------------------------------------------------------------------------------------------
// Compilation.

class Unsupported extends Error {}

function unsupported(): never {
  throw new Unsupported();
}

/** Filters a value by a predicate, as `[...]` does: an index (or indexes), else a boolean test. */
function filter(predicate: Node, test: Evaluator, value: unknown, scope: Scope): Flagged {
  let out = sequence();
  const input: unknown[] = Array.isArray(value) ? (value as unknown[]) : sequence(value);
  if (predicate.type === 'number') {
    let index = Math.floor(predicate.value as number);
    if (index < 0) index = input.length + index;
    const item = input[index];
    if (item !== undefined) {
      if (Array.isArray(item)) out = item as Flagged;
      else out.push(item);
    }
    return out;
  }
  for (let index = 0; index < input.length; index++) {
    const item = input[index];
    let res = test(item, scope);
    if (isNumeric(res)) res = [res];
    if (Array.isArray(res) && res.every((n) => typeof n === 'number')) {
      for (const n of res) {
        let i = Math.floor(n);
        if (i < 0) i = input.length + i;
        if (i === index) out.push(item);
      }
    } else if (toBoolean(res) === true) out.push(item);
  }
  return out;
}

interface Group {
  data: unknown;
  pair: number;
}

interface Pair {
  key: Evaluator;
  value: Evaluator;
  /** The key when it is written as a string (not one that looks like an array index). */
  literal?: string;
}

/** An object constructor over a value: items grouped by key, each group's value evaluated. */
function groupBy(pairs: Pair[], value: unknown, scope: Scope, literal = false): Record<string, unknown> {
  if (literal && !Array.isArray(value)) {
    // One item and keys written as distinct strings: no grouping to do, the values in key order.
    // (A plain object where jsonata makes one without a prototype: the same own fields, and
    // objects of one shape are faster to read for everything downstream. `__proto__` is never a
    // literal key here, and a computed one is left to jsonata.)
    const result: Record<string, unknown> = {};
    for (const pair of pairs) {
      const v = pair.value(value, scope);
      if (v !== undefined) result[pair.literal!] = v;
    }
    return result;
  }
  const result: Record<string, unknown> = {};
  const groups = Object.create(null) as Record<string, Group>;
  let input = Array.isArray(value) ? value : sequence(value);
  if (input.length === 0) input = sequence(undefined);
  for (const item of input) {
    for (let p = 0; p < pairs.length; p++) {
      const key = pairs[p]!.key(item, scope);
      if (key === undefined) continue;
      if (typeof key !== 'string' || key === '_jsonata_lambda' || key === '_jsonata_function') bail();
      if (key === '__proto__') bail();
      const existing = groups[key];
      if (existing === undefined) groups[key] = { data: item, pair: p };
      else if (existing.pair !== p) bail();
      else existing.data = append(existing.data, item);
    }
  }
  for (const key of Object.keys(groups)) {
    const g = groups[key]!;
    const v = pairs[g.pair]!.value(g.data, scope);
    if (v !== undefined) result[key] = v;
  }
  return result;
}

interface Compiler {
  /** Names the expression binds (`$x := ...`, lambda parameters). */
  local: Set<string>;
  /** Names the caller binds (`$vars`, `$index` ...). */
  bound: ReadonlySet<string>;
}

function collectLocals(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectLocals(n, into);
    return;
  }
  if (typeof node !== 'object' || node === null || node instanceof RegExp) return;
  const n = node as Node;
  if (n.type === 'bind' && (n.lhs as Node | undefined)?.type === 'variable')
    into.add(String((n.lhs as Node).value));
  if (n.type === 'lambda') for (const a of n.arguments ?? []) into.add(String(a.value));
  for (const [k, v] of Object.entries(n)) if (k !== 'value' || typeof v === 'object') collectLocals(v, into);
}

/** Whether a `:=` below binds into the frame of the block above it (not into a block or lambda of its own). */
function bindsInFrame(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(bindsInFrame);
  if (typeof node !== 'object' || node === null || node instanceof RegExp) return false;
  const n = node as Node;
  if (n.type === 'bind') return true;
  return Object.entries(n).some(
    ([k, v]) =>
      (k !== 'value' || typeof v === 'object') &&
      !(typeof v === 'object' && v !== null && ['block', 'lambda'].includes((v as Node).type)) &&
      bindsInFrame(v),
  );
}

/** Compiles a node with what every node gets after its own evaluation: predicates, group, singleton rules. */
function compile(node: Node, c: Compiler): Evaluator {
  if (node.tuple === true || node.focus !== undefined || node.index !== undefined) unsupported();
  if (node.ancestor !== undefined || node.seekingParent !== undefined) unsupported();
  const own = compileOwn(node, c);
  const predicates = (node.predicate ?? []).map((p) => {
    if (p.type !== 'filter') unsupported();
    return { node: p.expr, test: compile(p.expr, c) };
  });
  const group =
    node.type !== 'path' && node.group !== undefined ? compileGroup(node.group.lhs, c) : undefined;
  const keepArray = node.keepArray === true;
  if (predicates.length === 0 && group === undefined && !keepArray)
    // Paths, fields and calls give sequences; every other node gives a value already settled.
    return SEQUENCE_MAKERS.has(node.type) ? (input, scope) => settle(own(input, scope), false) : own;
  return (input, scope) => {
    let result = own(input, scope);
    for (const p of predicates) result = filter(p.node, p.test, result, scope);
    if (group !== undefined) result = groupBy(group, result, scope);
    return settle(result, keepArray);
  };
}

// (calls settle their own result)
const SEQUENCE_MAKERS = new Set(['path', 'name', 'variable']);

/** A sequence of none is nothing, of one is that one (unless it is kept as an array). */
function settle(result: unknown, keepArray: boolean): unknown {
  if (!isSequence(result)) return result;
  if (keepArray) result[KEEP] = true;
  if (result.length === 0) return undefined;
  if (result.length === 1) return result[KEEP] === true ? result : result[0];
  return result;
}

function compileGroup(pairs: [Node, Node][], c: Compiler): Pair[] {
  return pairs.map(([k, v]) => ({
    key: compile(k, c),
    value: compile(v, c),
    ...(k.type === 'string' && !/^(?:0|[1-9]\d*)$/.test(String(k.value)) && k.value !== '__proto__'
      ? { literal: String(k.value) }
      : {}),
  }));
}

/** Whether every key is a literal and no two are the same: `groupBy` needs no grouping for one item. */
function allLiteral(pairs: Pair[]): boolean {
  const keys = pairs.map((p) => p.literal);
  return keys.every((k) => k !== undefined) && new Set(keys).size === keys.length;
}

function compileOwn(node: Node, c: Compiler): Evaluator {
  switch (node.type) {
    case 'path':
      return compilePath(node, c);
    case 'name': {
      const key = String(node.value);
      return (input) => field(input, key);
    }
    case 'string':
    case 'number':
    case 'value': {
      const value = node.value;
      return () => value;
    }
    case 'variable': {
      const name = String(node.value);
      if (name === '') return (input) => input;
      // Anything else (jsonata's own functions as values, names nobody binds) is jsonata's.
      if (name !== '$' && !c.local.has(name) && !c.bound.has(name)) unsupported();
      return (_input, scope) => scope.lookup(name);
    }
    case 'regex': {
      if (!(node.value instanceof RegExp)) unsupported();
      const re = new RegExp(node.value);
      const value = new Regex(re);
      return () => value;
    }
    case 'condition': {
      const test = compile(node.condition!, c);
      const then = compile(node.then!, c);
      const otherwise = node.else === undefined ? undefined : compile(node.else, c);
      return (input, scope) => {
        if (toBoolean(test(input, scope)) === true) return then(input, scope);
        return otherwise === undefined ? undefined : otherwise(input, scope);
      };
    }
    case 'block': {
      const parts = (node.expressions ?? []).map((e) => compile(e, c));
      if (!bindsInFrame(node.expressions ?? []))
        return (input, scope) => {
          let result: unknown;
          for (const part of parts) result = part(input, scope);
          return result;
        };
      return (input, scope) => {
        const frame = new Scope(scope);
        let result: unknown;
        for (const part of parts) result = part(input, frame);
        return result;
      };
    }
    case 'bind': {
      const lhs = node.lhs as Node;
      if (lhs.type !== 'variable') unsupported();
      const name = String(lhs.value);
      const rhs = compile(node.rhs!, c);
      return (input, scope) => {
        const value = rhs(input, scope);
        scope.bind(name, value);
        return value;
      };
    }
    case 'lambda': {
      if (node.thunk === true) return compile(node.body!, c);
      if (node.signature !== undefined) unsupported();
      const params = (node.arguments ?? []).map((a) => String(a.value));
      const body = compile(node.body!, c);
      return (input, scope) => new Lambda(params, body, input, scope);
    }
    case 'function':
      return compileCall(node, c);
    case 'unary':
      return compileUnary(node, c);
    case 'binary':
      return compileBinary(node, c);
    default:
      return unsupported();
  }
}

/** Whether a step is a bare field name: nothing after it, nothing kept. */
function plainName(step: Node): boolean {
  return (
    step.type === 'name' &&
    step.stages === undefined &&
    step.predicate === undefined &&
    step.group === undefined &&
    step.keepArray !== true &&
    step.consarray !== true &&
    step.focus === undefined &&
    step.tuple !== true &&
    step.index === undefined &&
    step.ancestor === undefined
  );
}

/**
 * A path of field names (`meta.created`), or of names after a variable (`$ent.manager.value`):
 * the same steps as the general path, without building a sequence while one value is carried.
 */
function namesPath(first: Evaluator | undefined, keys: string[]): Evaluator {
  const n = keys.length;
  return (input, scope) => {
    // `cur` is one value (`one`), or the list of items the step before gave.
    let cur: unknown = input;
    if (first !== undefined) {
      cur = first(input, scope);
      if (cur === undefined) return undefined;
    }
    let one = !(Array.isArray(cur) && (first === undefined || (cur as Flagged)[CONS] !== true));
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const last = i === n - 1;
      if (one) {
        const v = settle(field(cur, key), false);
        if (v === undefined) return undefined;
        if (last) {
          if (Array.isArray(v) && !isSequence(v)) return v as unknown[];
          return settle(Array.isArray(v) ? sequence(...(v as unknown[])) : v, false);
        }
        cur = v;
        if (Array.isArray(v) && (v as Flagged)[CONS] !== true) one = false;
        continue;
      }
      const out = sequence();
      let count = 0;
      let only: unknown;
      for (const item of cur as unknown[]) {
        const v = settle(field(item, key), false);
        if (v === undefined) continue;
        count += 1;
        only = v;
        if (!Array.isArray(v) || (v as Flagged)[CONS] === true) out.push(v);
        else for (const x of v as unknown[]) out.push(x);
      }
      if (last && count === 1 && Array.isArray(only) && !isSequence(only)) return only as unknown[];
      if (out.length === 0) return undefined;
      cur = out;
    }
    return one ? cur : settle(cur, false);
  };
}

function compilePath(node: Node, c: Compiler): Evaluator {
  if (node.tuple === true) unsupported();
  const all = node.steps ?? [];
  if (
    all.length > 0 &&
    node.keepSingletonArray !== true &&
    node.group === undefined &&
    all.every((s, i) => plainName(s) || (i === 0 && s.type === 'variable' && s.stages === undefined))
  ) {
    const head = all[0]!;
    const first = head.type === 'variable' ? compile(head, c) : undefined;
    if (first !== undefined && all.length === 1) unsupported();
    return namesPath(
      first,
      (first === undefined ? all : all.slice(1)).map((s) => String(s.value)),
    );
  }
  const steps = (node.steps ?? []).map((step, i, all) => {
    if (step.type === 'sort' || step.tuple === true || step.focus !== undefined) unsupported();
    const stages = (step.stages ?? []).map((s) => {
      if (s.type !== 'filter') unsupported();
      return { node: s.expr, test: compile(s.expr, c) };
    });
    return {
      first: i === 0 && step.consarray === true,
      last: i === all.length - 1,
      eval: compile(step, c),
      stages,
    };
  });
  const absolute = node.steps?.[0]?.type === 'variable';
  const keepSingletonArray = node.keepSingletonArray === true;
  const group = node.group === undefined ? undefined : compileGroup(node.group.lhs, c);
  return (input, scope) => {
    let items: unknown[] = Array.isArray(input) && !absolute ? input : sequence(input);
    let result: unknown[] | undefined;
    for (const step of steps) {
      if (step.first) {
        const v = step.eval(items, scope);
        if (v !== undefined && !Array.isArray(v)) bail();
        result = v as unknown[] | undefined;
      } else if (items.length === 1) {
        // One item in (a record, or one value): the step's value is the result, no collecting.
        let res = step.eval(items[0], scope);
        for (const stage of step.stages) res = filter(stage.node, stage.test, res, scope);
        if (res === undefined) result = sequence();
        else if (!Array.isArray(res) || (res as Flagged)[CONS] === true) result = sequence(res);
        else if (step.last && !isSequence(res)) result = res;
        else result = sequence(...(res as unknown[]));
      } else {
        const collected: unknown[] = [];
        for (const item of items) {
          let res = step.eval(item, scope);
          for (const stage of step.stages) res = filter(stage.node, stage.test, res, scope);
          if (res !== undefined) collected.push(res);
        }
        const only = collected[0];
        if (step.last && collected.length === 1 && Array.isArray(only) && !isSequence(only)) result = only;
        else {
          const flat = sequence();
          for (const res of collected) {
            if (!Array.isArray(res) || (res as Flagged)[CONS] === true) flat.push(res);
            else for (const v of res) flat.push(v);
          }
          result = flat;
        }
      }
      if (result === undefined || result.length === 0) break;
      items = result;
    }
    if (keepSingletonArray) {
      if (result === undefined) bail();
      if (Array.isArray(result) && (result as Flagged)[CONS] === true && !isSequence(result))
        result = sequence(result);
      (result as Flagged)[KEEP] = true;
    }
    if (group !== undefined) return groupBy(group, result, scope);
    return result;
  };
}

function compileCall(node: Node, c: Compiler): Evaluator {
  const procedure = node.procedure!;
  if (procedure.type !== 'variable') unsupported();
  const name = String(procedure.value);
  const local = c.local.has(name);
  const builtin = BUILTINS.get(name);
  if (builtin === undefined && !c.bound.has(name) && !local) unsupported();
  const args = (node.arguments ?? []).map((a) => compile(a, c));
  const n = args.length;
  // Where the function comes from is known here, except for names the expression binds itself.
  const resolve: (scope: Scope) => unknown = local
    ? (scope) => scope.lookup(name)
    : c.bound.has(name)
      ? (scope) => {
          const f = scope.top[name];
          return f !== undefined || Object.prototype.hasOwnProperty.call(scope.top, name) ? f : builtin;
        }
      : () => builtin;
  if (n === 1 && !local) {
    const only = args[0]!;
    return (input, scope) => {
      const proc = resolve(scope);
      const a = only(input, scope);
      if (typeof proc === 'function') {
        if (isCallable(a)) bail();
        return settle(checked((proc as (x: unknown) => unknown).call(input, a)), false);
      }
      return settle(apply(proc, [a], input), false);
    };
  }
  return (input, scope) => {
    const proc = resolve(scope);
    const values = new Array<unknown>(n);
    for (let i = 0; i < n; i++) values[i] = args[i]!(input, scope);
    return settle(apply(proc, values, input), false);
  };
}

/** A function value of this evaluator's own making (jsonata would hand over one of its own). */
function isCallable(value: unknown): boolean {
  return value instanceof Callable;
}

/** What a caller's function answered; a promise is jsonata's to wait for. */
function checked(result: unknown): unknown {
  if (result instanceof Promise) {
    // jsonata will ask again and wait for it; its failure is reported there.
    result.catch(() => undefined);
    bail();
  }
  return result;
}

function apply(proc: unknown, args: unknown[], input: unknown): unknown {
  if (proc instanceof Builtin) return proc.call(args, input);
  if (proc instanceof Lambda) {
    const frame = new Scope(proc.scope);
    proc.params.forEach((p, i) => frame.bind(p, args[i]));
    return proc.body(proc.input, frame);
  }
  if (typeof proc === 'function') {
    // jsonata hands a function argument over as a callable of its own: left to it.
    for (const a of args) if (isCallable(a)) bail();
    return checked((proc as (...a: unknown[]) => unknown).apply(input, args));
  }
  return bail();
}

function compileUnary(node: Node, c: Compiler): Evaluator {
  switch (node.value) {
    case '-': {
      const operand = compile(node.expression!, c);
      return (input, scope) => {
        const v = operand(input, scope);
        if (v === undefined) return undefined;
        if (!isNumeric(v)) bail();
        return -v;
      };
    }
    case '[': {
      const items = (node.expressions ?? []).map((e) => ({ nested: e.value === '[', eval: compile(e, c) }));
      const cons = node.consarray === true;
      return (input, scope) => {
        let result: unknown = [];
        for (const item of items) {
          const v = item.eval(input, scope);
          if (v === undefined) continue;
          if (item.nested) (result as unknown[]).push(v);
          else result = append(result, v);
        }
        if (cons) (result as Flagged)[CONS] = true;
        return result;
      };
    }
    case '{': {
      const pairs = compileGroup(node.lhs as [Node, Node][], c);
      const literal = allLiteral(pairs);
      return (input, scope) => groupBy(pairs, input, scope, literal);
    }
    default:
      return unsupported();
  }
}

function compileBinary(node: Node, c: Compiler): Evaluator {
  const op = String(node.value);
  const lhs = compile(node.lhs as Node, c);
  const rhs = compile(node.rhs!, c);
  switch (op) {
    case 'and':
      return (input, scope) => toBoolean(lhs(input, scope)) === true && toBoolean(rhs(input, scope)) === true;
    case 'or':
      return (input, scope) => toBoolean(lhs(input, scope)) === true || toBoolean(rhs(input, scope)) === true;
    case '=':
    case '!=':
      return (input, scope) => {
        const l = lhs(input, scope);
        const r = rhs(input, scope);
        if (l === undefined || r === undefined) return false;
        return op === '=' ? deepEqual(l, r) : !deepEqual(l, r);
      };
    case '<':
    case '<=':
    case '>':
    case '>=':
      return (input, scope) => {
        const l = lhs(input, scope);
        const r = rhs(input, scope);
        const comparable = (v: unknown): boolean =>
          v === undefined || typeof v === 'string' || typeof v === 'number';
        if (!comparable(l) || !comparable(r)) bail();
        if (l === undefined || r === undefined) return undefined;
        if (typeof l !== typeof r) bail();
        const a = l as string | number;
        const b = r as string | number;
        return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
      };
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return (input, scope) => {
        const l = lhs(input, scope);
        const r = rhs(input, scope);
        if ((l !== undefined && !isNumeric(l)) || (r !== undefined && !isNumeric(r))) bail();
        if (l === undefined || r === undefined) return undefined;
        const a = l;
        const b = r;
        return op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : op === '/' ? a / b : a % b;
      };
    case '&':
      return (input, scope) => {
        const l = lhs(input, scope);
        const r = rhs(input, scope);
        return (l === undefined ? '' : stringOf(l)!) + (r === undefined ? '' : stringOf(r)!);
      };
    case 'in':
      return (input, scope) => {
        const l = lhs(input, scope);
        const r = rhs(input, scope);
        if (l === undefined || r === undefined) return false;
        return (Array.isArray(r) ? r : [r]).some((v) => v === l);
      };
    default:
      return unsupported();
  }
}

/** A compiled expression that runs synchronously; see the module's description. */
export type SyncExpression = (input: unknown, bindings: Record<string, unknown>) => unknown;

/**
 * Compiles jsonata's syntax tree of an expression, given the names the caller binds (variables and
 * functions). Undefined when the expression has a node or function this evaluator leaves to jsonata.
 */
export function compileSync(ast: jsonata.ExprNode, bound: Iterable<string>): SyncExpression | undefined {
  const local = new Set<string>();
  collectLocals(ast, local);
  let root: Evaluator;
  try {
    root = compile(ast as unknown as Node, { local, bound: new Set(bound) });
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return (input, bindings) => {
    if (Array.isArray(input)) bail();
    const scope = new Scope(undefined, bindings);
    scope.bind('$', input);
    return root(input, scope);
  };
}
