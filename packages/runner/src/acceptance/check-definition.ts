/**
 * definition: the connector is what `oaa run` loads (id, version, apiVersion, template, a zod
 * config schema, an `extract`), its config schema converts to JSON Schema with every field
 * described (what `oaa` and editors show of the config), and each declared secret says what it is.
 */
import { isOaaError, z } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { assertConnector } from '../plugins/check-connector.js';
import { fail, pass } from './types.js';
import type { CheckOutcome } from './types.js';

type JsonSchema = Record<string, unknown>;

function isSchema(x: unknown): x is JsonSchema {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function hasText(x: unknown): boolean {
  return typeof x === 'string' && x.trim() !== '';
}

/** The schema a `$ref` of the same document names (`#/$defs/x`), if any. */
function resolveRef(root: JsonSchema, schema: JsonSchema): JsonSchema | undefined {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) at = isSchema(at) ? at[part] : undefined;
  return isSchema(at) ? at : undefined;
}

/** The schemas `schema` stands for: itself, what its `$ref` names, and its anyOf/oneOf/allOf branches. */
function variants(root: JsonSchema, schema: JsonSchema, seen = new Set<JsonSchema>()): JsonSchema[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const out = [schema];
  const target = resolveRef(root, schema);
  if (target !== undefined) out.push(...variants(root, target, seen));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) if (isSchema(s)) out.push(...variants(root, s, seen));
  }
  return out;
}

/** Paths of the fields under `schema` (at `path`) that have no description. */
function undocumented(root: JsonSchema, schema: JsonSchema, path: string, seen: Set<JsonSchema>): string[] {
  const out: string[] = [];
  for (const s of variants(root, schema)) {
    if (seen.has(s)) continue;
    seen.add(s);
    const properties = s['properties'];
    if (isSchema(properties)) {
      for (const [name, field] of Object.entries(properties)) {
        if (!isSchema(field)) continue;
        const fieldPath = `${path}.${name}`;
        if (!variants(root, field).some((v) => hasText(v['description']))) out.push(fieldPath);
        out.push(...undocumented(root, field, fieldPath, seen));
      }
    }
    if (isSchema(s['items'])) out.push(...undocumented(root, s['items'], `${path}[]`, seen));
    if (isSchema(s['additionalProperties']))
      out.push(...undocumented(root, s['additionalProperties'], `${path}.*`, seen));
  }
  return out;
}

/** The definition check. */
export function checkDefinition(connector: Connector): CheckOutcome {
  const problems: string[] = [];
  try {
    assertConnector(connector.id, connector);
  } catch (error) {
    if (!isOaaError(error)) throw error;
    const listed = error.details['problems'];
    problems.push(...(Array.isArray(listed) ? listed.map(String) : [error.message]));
    return fail(problems.join('; '), { problems });
  }
  let schema: JsonSchema | undefined;
  try {
    schema = z.toJSONSchema(connector.configSchema, { io: 'input', unrepresentable: 'throw' });
  } catch (error) {
    problems.push(
      `the config schema does not convert to JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const fields = schema === undefined ? [] : [...new Set(undocumented(schema, schema, 'config', new Set()))];
  if (fields.length > 0)
    problems.push(
      `config field${fields.length === 1 ? '' : 's'} without a description (add .describe() or .meta({ description })): ${fields.join(', ')}`,
    );
  const secrets = connector.secrets ?? [];
  for (const secret of secrets)
    if (!hasText(secret.description)) problems.push(`secret "${secret.name}" has no description`);
  const names = secrets.map((s) => s.name);
  for (const name of new Set(names.filter((n, i) => names.indexOf(n) !== i)))
    problems.push(`secret "${name}" is declared more than once`);
  const details = { undocumentedFields: fields, secrets: names };
  if (problems.length > 0) return fail(problems.join('; '), { problems, ...details });
  return pass(
    `${connector.id} ${connector.version}, apiVersion ${connector.apiVersion}, template ${connector.template}; ` +
      `config schema documented; ${secrets.length} secret${secrets.length === 1 ? '' : 's'} described`,
    details,
  );
}
