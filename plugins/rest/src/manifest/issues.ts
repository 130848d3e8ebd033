/**
 * zod's issues about a manifest as problems a person can act on: each at its manifest path and
 * line, saying what is allowed there (the fields of an object, the values of an enum).
 */
import type { z } from '@oaakit/core';
import type { ManifestFile, ManifestPath, ManifestProblem } from './source-map.js';

type Issue = z.core.$ZodIssue;
type AnySchema = z.core.$ZodType;

interface Def {
  type: string;
  shape?: Record<string, AnySchema>;
  innerType?: AnySchema;
  in?: AnySchema;
  options?: AnySchema[];
  discriminator?: string;
  valueType?: AnySchema;
  element?: AnySchema;
  getter?: () => AnySchema;
}

const defOf = (schema: AnySchema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas `schema` may be for `value` (through optional, default, unions...). */
function objectsOf(schema: AnySchema, value: unknown): AnySchema[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return [schema];
    case 'optional':
    case 'default':
    case 'nullable':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return objectsOf(def.innerType!, value);
    case 'pipe':
      return objectsOf(def.in!, value);
    case 'lazy':
      return objectsOf(def.getter!(), value);
    case 'union': {
      const options = def.options ?? [];
      const discriminator = def.discriminator;
      if (discriminator !== undefined && typeof value === 'object' && value !== null) {
        const wanted = (value as Record<string, unknown>)[discriminator];
        const matching = options.filter((o) => {
          const shape = defOf(o).shape;
          const literal = shape?.[discriminator];
          const values =
            literal === undefined ? [] : ((defOf(literal) as { values?: unknown[] }).values ?? []);
          return values.includes(wanted);
        });
        if (matching.length > 0) return matching.flatMap((o) => objectsOf(o, value));
      }
      return options.flatMap((o) => objectsOf(o, value));
    }
    default:
      return [];
  }
}

/** The schema of the value at `path` below `schema`, following `root`'s values for unions. */
function schemaAt(schema: AnySchema, root: unknown, path: ManifestPath): AnySchema | undefined {
  let current: AnySchema | undefined = schema;
  let value: unknown = root;
  for (const part of path) {
    if (current === undefined) return undefined;
    current = childSchema(current, value, part);
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string | number, unknown>)[part]
        : undefined;
  }
  return current;
}

function childSchema(schema: AnySchema, value: unknown, part: string | number): AnySchema | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return childSchema(def.innerType!, value, part);
    case 'pipe':
      return childSchema(def.in!, value, part);
    case 'lazy':
      return childSchema(def.getter!(), value, part);
    case 'object':
      return typeof part === 'string' ? def.shape?.[part] : undefined;
    case 'record':
      return def.valueType;
    case 'array':
      return typeof part === 'number' ? def.element : undefined;
    case 'union':
      if (Array.isArray(value)) {
        const list = (def.options ?? []).find((o) => defOf(o).type === 'array');
        if (list !== undefined) return childSchema(list, value, part);
      }
      for (const object of objectsOf(schema, value)) {
        const child = childSchema(object, value, part);
        if (child !== undefined) return child;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The fields an object at `path` may have. */
function allowedKeys(schema: AnySchema, root: unknown, path: ManifestPath): string[] {
  const at = schemaAt(schema, root, path);
  if (at === undefined) return [];
  const value = valueAt(root, path);
  const keys = new Set<string>();
  for (const object of objectsOf(at, value))
    for (const key of Object.keys(defOf(object).shape ?? {})) keys.add(key);
  return [...keys];
}

function valueAt(root: unknown, path: ManifestPath): unknown {
  let value = root;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  record: 'a mapping',
};

/** The message of one issue that is not about a union or unknown keys. */
function message(issue: Issue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    if (value === undefined) return 'is required';
    return `must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${describeValue(value)}`;
  }
  if (issue.code === 'invalid_value') {
    return issue.values.length === 1
      ? `must be ${JSON.stringify(issue.values[0])}, not ${describeValue(value)}`
      : `must be one of ${issue.values.map((v) => String(v)).join(', ')}, not ${describeValue(value)}`;
  }
  if (issue.code === 'too_small') {
    if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
    if (issue.origin === 'array')
      return `must have at least ${String(issue.minimum)} item${Number(issue.minimum) === 1 ? '' : 's'}`;
    return `must be at least ${String(issue.minimum)}${issue.inclusive === false ? ' (exclusive)' : ''}, not ${JSON.stringify(value)}`;
  }
  if (issue.code === 'too_big')
    return `must be at most ${String(issue.maximum)}, not ${JSON.stringify(value)}`;
  if (issue.code === 'invalid_format')
    return issue.message.startsWith('Invalid') ? `is not valid: ${issue.message}` : issue.message;
  return issue.message;
}

/**
 * The problems of `issues` (from `schema.safeParse(root, { reportInput: true })`), each at its
 * manifest path and line. `base` is the path the issues' paths are relative to.
 */
export function issueProblems(
  file: ManifestFile,
  schema: AnySchema,
  root: unknown,
  issues: readonly Issue[],
  base: ManifestPath = [],
): ManifestProblem[] {
  const out: ManifestProblem[] = [];
  for (const issue of issues) {
    const path = [...base, ...(issue.path as (string | number)[])];
    const value = valueAt(root, path);
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeys(schema, root, path);
      for (const key of issue.keys)
        out.push(
          file.problem([...path, key], `unknown field; allowed here: ${allowed.join(', ')}`, { key: true }),
        );
    } else if (issue.code === 'invalid_union') {
      const noMatch = issue as { note?: string; options?: unknown[] };
      if (noMatch.note === 'No matching discriminator') {
        const options = (noMatch.options ?? []).map((o) => String(o)).join(', ');
        out.push(
          file.problem(
            path,
            value === undefined
              ? `is required: one of ${options}`
              : `must be one of ${options}, not ${describeValue(value)}`,
          ),
        );
        continue;
      }
      // One source or a list of them: the branch of the shape that was written.
      const branches = issue.errors;
      const chosen =
        branches.find((b) => !b.some((i) => i.path.length === 0 && i.code === 'invalid_type')) ?? branches[0];
      if (chosen === undefined) out.push(file.problem(path, issue.message));
      else out.push(...issueProblems(file, schema, root, chosen, path));
    } else if (issue.code === 'invalid_key') {
      const inner = issue.issues[0];
      const why = inner !== undefined && inner.message.startsWith('must') ? `: it ${inner.message}` : '';
      out.push(file.problem(path, `is not a valid name${why}`, { key: true }));
    } else {
      out.push(file.problem(path, message(issue, value)));
    }
  }
  return out;
}
