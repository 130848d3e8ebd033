/**
 * JSONata expressions and templates of a manifest, compiled once: syntax errors are manifest
 * problems at their line, and what an expression throws while it runs names the manifest path and
 * line too. A plain field path (`id`, `data.items`) is read without JSONata where the caller only
 * wants a value or a list of values, which is most selectors and keys: it costs nothing per record.
 */
import { OaaError } from '@oaakit/core';
import jsonata from 'jsonata';
import { REST_ERROR_CODES, type RestErrorCode } from '../errors.js';
import { compileSync, type SyncExpression } from './sync-jsonata.js';
import {
  formatPath,
  formatProblem,
  type ManifestFile,
  type ManifestPath,
  type ManifestProblem,
} from '../manifest/source-map.js';

/** The names a manifest may bind besides JSONata's own functions. */
export const BOUND_VARIABLES = ['vars', 'record', 'partition', 'parent', 'key'] as const;
export const BOUND_FUNCTIONS = ['index', 'timestamp', 'resource', 'distinctNames', 'text', 'bool'] as const;

/** A node of JSONata's syntax tree; its `type` is wider than the typings say (`path`, `filter`...). */
type Ast = Omit<jsonata.ExprNode, 'type'> & { type: string };

/** What an expression names, found in its syntax tree: for the manifest's own checks. */
export interface References {
  /** Literal first arguments of `$index(...)`, with their offsets. */
  indexes: { name: string; offset: number }[];
  /** `$vars.x` (and, in templates, `vars.x`) names, with their offsets. */
  vars: { name: string; offset: number }[];
  /** The first names of paths (`record` of `record.id`, `vars` of `$vars.url`). */
  heads: Set<string>;
  /** Whether it reads `$key` (an index value evaluated per key). */
  keyed: boolean;
  /** Every field name it reads (`userName` of `$text(userName)`). */
  names: Set<string>;
}

function walk(node: unknown, visit: (n: Ast) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  visit(node as Ast);
  for (const [key, value] of Object.entries(node))
    if (key !== 'value' || typeof value === 'object') walk(value, visit);
}

function references(ast: jsonata.ExprNode, templateInput: boolean): References {
  const out: References = { indexes: [], vars: [], heads: new Set(), keyed: false, names: new Set() };
  walk(ast, (n) => {
    if (n.type === 'name' && typeof n.value === 'string') out.names.add(n.value);
    if (n.type === 'function' && n.procedure?.type === 'variable' && n.procedure.value === 'index') {
      const first = n.arguments?.[0];
      if (first?.type === 'string' && typeof first.value === 'string')
        out.indexes.push({ name: first.value, offset: (first.position ?? 1) - first.value.length - 1 });
    }
    if (n.type === 'variable' && n.value === 'key') out.keyed = true;
    const head = Array.isArray(n.steps) ? n.steps[0] : undefined;
    if (
      n.type === 'path' &&
      typeof head?.value === 'string' &&
      (head.type === 'name' || head.type === 'variable')
    )
      out.heads.add(head.value);
    if (n.type === 'path' && Array.isArray(n.steps) && n.steps.length >= 2) {
      const [head, next] = n.steps as [jsonata.ExprNode, jsonata.ExprNode];
      const isVars =
        head.value === 'vars' && (head.type === 'variable' || (templateInput && head.type === 'name'));
      if (isVars && next.type === 'name' && typeof next.value === 'string')
        out.vars.push({ name: next.value, offset: (next.position ?? 1) - next.value.length });
    }
  });
  return out;
}

const RESERVED = new Set(['and', 'or', 'in', 'true', 'false', 'null', 'function']);
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * A field path's values as one list: lists met on the way are flattened and mapped over, as
 * JSONata does with sequences (`data.items` gives the items, `members.value` every member's value).
 */
function readPath(input: unknown, steps: readonly string[]): unknown[] {
  let current: unknown[] = [input];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (Array.isArray(value)) {
        for (const item of value) {
          if (typeof item !== 'object' || item === null) continue;
          const v = (item as Record<string, unknown>)[step];
          if (Array.isArray(v)) for (const x of v as unknown[]) next.push(x);
          else if (v !== undefined) next.push(v);
        }
      } else if (typeof value === 'object' && value !== null) {
        const v = (value as Record<string, unknown>)[step];
        if (Array.isArray(v)) for (const x of v as unknown[]) next.push(x);
        else if (v !== undefined) next.push(v);
      }
    }
    current = next;
  }
  return current;
}

/** Where an expression is written, to name it in errors. */
export interface Site {
  file: ManifestFile;
  path: ManifestPath;
  /** Where the expression starts inside the string at `path` (templates hold several). */
  offset: number;
}

/** What `now` gives when the value must be awaited. */
export const LATER: unique symbol = Symbol('later');

/** Values bound in an evaluation: `$vars`, `$record` ... and the run's functions. */
export type Bindings = Record<string, unknown>;

/** A compiled JSONata expression. */
export class Expression {
  private readonly steps: string[] | undefined;
  /** The same expression run without awaiting, when every node of it can be (see sync-jsonata). */
  private readonly sync: SyncExpression | undefined;

  private constructor(
    readonly source: string,
    readonly site: Site,
    private readonly compiled: jsonata.Expression,
    readonly refs: References,
  ) {
    const trimmed = source.trim();
    const steps = FIELD_PATH.test(trimmed) ? trimmed.split('.') : undefined;
    this.steps = steps?.some((s) => RESERVED.has(s)) === true ? undefined : steps;
    this.sync = compileSync(compiled.ast(), [...BOUND_VARIABLES, ...BOUND_FUNCTIONS]);
  }

  /** Whether evaluations run without jsonata's awaits (the fast path). */
  get isSynchronous(): boolean {
    return this.sync !== undefined;
  }

  /** Compiles `source`; a syntax error is added to `problems` (and undefined returned). */
  static compile(
    source: string,
    site: Site,
    problems: ManifestProblem[],
    options: { templateInput?: boolean } = {},
  ): Expression | undefined {
    let compiled: jsonata.Expression;
    try {
      compiled = jsonata(source);
    } catch (error) {
      const e = error as jsonata.JsonataError;
      problems.push(
        site.file.problem(
          site.path,
          `the expression ${JSON.stringify(short(source))} is not valid JSONata: ${e.message}`,
          {
            offset: site.offset + Math.max(0, (e.position ?? 1) - 1),
          },
        ),
      );
      return undefined;
    }
    return new Expression(source, site, compiled, references(compiled.ast(), options.templateInput === true));
  }

  /** Whether the expression is a plain field path, read without JSONata. */
  get isFieldPath(): boolean {
    return this.steps !== undefined;
  }

  /**
   * The value now, without awaiting: a field path, or an expression the synchronous evaluator
   * settles. `LATER` when it must be awaited (`evaluate`, `list`, `one`).
   */
  now(input: unknown, bindings: Bindings): unknown {
    if (this.sync === undefined) return LATER;
    try {
      return this.sync(input, bindings);
    } catch {
      return LATER;
    }
  }

  /** `list`, now; `LATER` when it must be awaited. */
  listNow(input: unknown, bindings: Bindings): unknown[] | typeof LATER {
    if (this.steps !== undefined) return readPath(input, this.steps);
    const value = this.now(input, bindings);
    return value === LATER ? LATER : asList(value);
  }

  /** `one`, now; `LATER` when it must be awaited. */
  oneNow(input: unknown, bindings: Bindings): unknown {
    if (this.steps !== undefined) return readPath(input, this.steps)[0];
    const value = this.now(input, bindings);
    return Array.isArray(value) ? (value as unknown[])[0] : value;
  }

  /** The value, as JSONata gives it. Throws `REST_MAPPING_FAILED` naming the manifest path and line. */
  async evaluate(input: unknown, bindings: Bindings, what: () => string): Promise<unknown> {
    // Anything the fast path does not settle the same way (NEEDS_JSONATA), and any error, is
    // jsonata's to answer: it gives its own result, or the error with its own code and position.
    const fast = this.now(input, bindings);
    if (fast !== LATER) return fast;
    try {
      return await this.compiled.evaluate(input, bindings);
    } catch (error) {
      throw this.failure(error, what());
    }
  }

  /** The values as a list: a list as it is, one value as a list of one, nothing as an empty list. */
  async list(input: unknown, bindings: Bindings, what: () => string): Promise<unknown[]> {
    if (this.steps !== undefined) return readPath(input, this.steps);
    return asList(await this.evaluate(input, bindings, what));
  }

  /** One value: the first of a list; undefined when there is none. */
  async one(input: unknown, bindings: Bindings, what: () => string): Promise<unknown> {
    if (this.steps !== undefined) return readPath(input, this.steps)[0];
    const value = await this.evaluate(input, bindings, what);
    return Array.isArray(value) ? (value as unknown[])[0] : value;
  }

  /** The error of a failed evaluation, at its place in the manifest. */
  failure(
    error: unknown,
    what: string,
    code: RestErrorCode = REST_ERROR_CODES.REST_MAPPING_FAILED,
  ): OaaError<RestErrorCode> {
    const e = error as Partial<jsonata.JsonataError>;
    const offset = this.site.offset + Math.max(0, (typeof e.position === 'number' ? e.position : 1) - 1);
    const problem = this.site.file.problem(this.site.path, `${e.message ?? String(error)} (${what})`, {
      offset,
    });
    return new OaaError<RestErrorCode>(formatProblem(this.site.file.name, problem), {
      code,
      cause: error,
      details: {
        manifest: this.site.file.name,
        path: problem.path,
        line: problem.line,
        column: problem.column,
      },
      hints: [
        `check the expression at ${formatPath(this.site.path)}; oaa manifest try shows what it makes of real records`,
      ],
    });
  }
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}

/** A value as text: strings as they are, numbers and booleans written out, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/** A whole number of at least 1, also written as text (`"50"`); undefined for anything else. */
export function positiveWhole(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** A value as a list: arrays as they are, nothing as none. */
export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? (value as unknown[]) : [value];
}

const PART = /\{\{([\s\S]*?)\}\}/g;

/** A string with `{{ expression }}` parts. */
export class Template {
  private constructor(
    readonly source: string,
    readonly site: Site,
    /** Literal text and compiled parts, in order. */
    private readonly parts: (string | Expression)[],
  ) {}

  /** Compiles a template; each invalid part is a problem. */
  static compile(
    source: string,
    site: Omit<Site, 'offset'>,
    problems: ManifestProblem[],
  ): Template | undefined {
    const parts: (string | Expression)[] = [];
    let last = 0;
    let ok = true;
    for (const match of source.matchAll(PART)) {
      const at = match.index;
      if (at > last) parts.push(source.slice(last, at));
      const text = match[1]!;
      if (text.trim() === '') {
        problems.push(site.file.problem(site.path, 'an empty {{ }} in the template', { offset: at }));
        ok = false;
      } else {
        const expression = Expression.compile(text, { ...site, offset: at + 2 }, problems, {
          templateInput: true,
        });
        if (expression === undefined) ok = false;
        else parts.push(expression);
      }
      last = at + match[0].length;
    }
    if (last < source.length) parts.push(source.slice(last));
    const open = source.indexOf('{{', last);
    if (open >= 0) {
      problems.push(site.file.problem(site.path, 'a {{ without its }}', { offset: open }));
      ok = false;
    }
    return ok ? new Template(source, { ...site, offset: 0 }, parts) : undefined;
  }

  /** A template of fixed text (no parts), for values written as they are. */
  static literal(text: string, site: Omit<Site, 'offset'>): Template {
    return new Template(text, { ...site, offset: 0 }, [text]);
  }

  get expressions(): Expression[] {
    return this.parts.filter((p): p is Expression => typeof p !== 'string');
  }

  /** Whether the template has no `{{ }}` part. */
  get isLiteral(): boolean {
    return this.parts.every((p) => typeof p === 'string');
  }

  /**
   * The value: one `{{ }}` part alone keeps its type; otherwise the text. A part that gives nothing
   * makes the whole template give nothing (undefined).
   */
  async value(input: TemplateInput, bindings: Bindings, what: () => string): Promise<unknown> {
    const [only] = this.parts;
    if (this.parts.length === 1 && only instanceof Expression) return only.evaluate(input, bindings, what);
    let out = '';
    for (const part of this.parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const v = await part.evaluate(input, bindings, what);
      if (v === undefined || v === null) return undefined;
      out += textOf(v);
    }
    return out;
  }

  /** The text; throws `REST_MAPPING_FAILED` at the template when a part gives nothing. */
  async text(input: TemplateInput, bindings: Bindings, what: () => string): Promise<string> {
    const v = await this.value(input, bindings, what);
    if (v === undefined || v === null) {
      const problem = this.site.file.problem(
        this.site.path,
        `the template ${JSON.stringify(this.source)} gave nothing (${what()})`,
      );
      throw new OaaError<RestErrorCode>(formatProblem(this.site.file.name, problem), {
        code: REST_ERROR_CODES.REST_MAPPING_FAILED,
        details: {
          manifest: this.site.file.name,
          path: problem.path,
          line: problem.line,
          column: problem.column,
        },
        hints: ['a {{ }} part names a var, record field or partition value that is not there'],
      });
    }
    return textOf(v);
  }
}

/** What templates see: `vars`, `record` (of the for_each stream) and `partition`. */
export interface TemplateInput {
  vars: Record<string, unknown>;
  record?: unknown;
  partition?: Record<string, unknown> | undefined;
}
