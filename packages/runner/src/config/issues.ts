/**
 * zod issues as config violations: each names the key path (`connectors[0].plugin`) and says what
 * is allowed. Input values are never echoed, so a secret pasted into the wrong key stays out of
 * messages.
 */
import type { Violation } from '@oaakit/core';
import * as z from 'zod';

/** `connectors[0].plugin` from `['connectors', 0, 'plugin']`; keys that are not identifiers are quoted. */
export function keyPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part))
      out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out === '' ? '(root)' : out;
}

/** The object schema reached by walking `path` from `schema`, through arrays, records and wrappers. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const part of [...path, undefined]) {
    while (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault
    ) {
      current = current.unwrap() as z.ZodType;
    }
    if (part === undefined || current === undefined) return current;
    if (current instanceof z.ZodObject) current = (current.shape as Record<string, z.ZodType>)[String(part)];
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else if (current instanceof z.ZodRecord) current = current.valueType as z.ZodType;
    else return undefined;
  }
  return current;
}

function allowedKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const at = schemaAt(schema, path);
  return at instanceof z.ZodObject ? Object.keys(at.shape) : [];
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Violations of `value` against `schema`, one per problem, or none. `prefix` is put before every
 * path (e.g. `connectors[0].config` when checking a connector's own config).
 */
export function schemaViolations(schema: z.ZodType, value: unknown, prefix = ''): Violation[] {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return [];
  const violations: Violation[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeys(schema, issue.path);
      for (const key of issue.keys) {
        violations.push({
          field: keyPath([...issue.path, key], prefix),
          description: `unknown key${allowed.length > 0 ? `; allowed here: ${allowed.join(', ')}` : ''}`,
        });
      }
    } else if (issue.code === 'invalid_type') {
      const description =
        issue.input === undefined
          ? 'required'
          : `must be ${article(issue.expected)}, not ${describeType(issue.input)}`;
      violations.push({ field: keyPath(issue.path, prefix), description });
    } else if (issue.code === 'invalid_value') {
      violations.push({
        field: keyPath(issue.path, prefix),
        description: `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
      });
    } else {
      violations.push({ field: keyPath(issue.path, prefix), description: issue.message });
    }
  }
  return violations;
}

function article(expected: string): string {
  if (expected === 'array') return 'a list';
  if (expected === 'object' || expected === 'record') return 'an object';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** `path: description` lines, for error messages. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.field}: ${v.description}`).join('\n');
}
