/**
 * Parses request bodies with `@oaakit/core`'s zod schemas (the one definition of every shape) and turns
 * schema issues into the service's field violations.
 */
import type { Violation } from '@oaakit/core';
import { invalidArgument } from '../errors.js';

interface SchemaIssue {
  code?: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
}

/** The part of a zod schema this module uses. */
export interface BodySchema<T> {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Formats a path as the service writes field paths: `applications[0].local_users[3]`. */
export function formatField(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

function describe(issue: SchemaIssue): string {
  // zod says "expected string, received undefined" for a missing field; say what a user means.
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return 'is required';
  return issue.message;
}

/** Field violations for schema issues; unknown keys become one violation each. */
export function issuesToViolations(issues: readonly SchemaIssue[]): Violation[] {
  const out: Violation[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys)
        out.push({ field: formatField([...issue.path, key]), description: 'unknown field' });
      continue;
    }
    out.push({ field: formatField(issue.path) || 'body', description: describe(issue) });
  }
  return out;
}

/** Parses `body` with `schema` or throws 400 InvalidArgument naming every bad field. */
export function parseBody<T>(schema: BodySchema<T>, body: unknown): T {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidArgument([{ field: 'body', description: 'must be a JSON object' }]);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw invalidArgument(issuesToViolations(result.error.issues));
}
