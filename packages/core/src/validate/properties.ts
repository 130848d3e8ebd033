/** Custom property values checked against the payload's `custom_property_definition`. */
import type { PropertyType } from '../schemas/common.js';
import { isRfc3339 } from '../schemas/primitives.js';
import type { CheckContext } from './context.js';

export type PropertyDefinitions = Record<string, PropertyType> | null | undefined;

const EXPECTED: Record<PropertyType, string> = {
  STRING: 'a string',
  NUMBER: 'a number',
  BOOLEAN: 'a boolean',
  STRING_LIST: 'a list of strings',
  TIMESTAMP: 'an RFC 3339 timestamp string',
};

function matches(type: PropertyType, value: unknown): boolean {
  switch (type) {
    case 'STRING':
      return typeof value === 'string';
    case 'NUMBER':
      return typeof value === 'number';
    case 'BOOLEAN':
      return typeof value === 'boolean';
    case 'STRING_LIST':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'TIMESTAMP':
      return typeof value === 'string' && isRfc3339(value);
  }
}

/** Per definitions object: its names lower-cased (the first of names equal but for case wins). */
const foldedNames = new WeakMap<object, Map<string, PropertyType>>();

/**
 * The declared type of property `name`. Names compare without case, as the vendor SDK compares
 * them: a value set as `Name` finds the definition `name`. The exact spelling is tried first, so
 * the usual case costs one property read.
 */
export function declaredType(definitions: PropertyDefinitions, name: string): PropertyType | undefined {
  if (!definitions) return undefined;
  const exact = definitions[name];
  // A name such as `constructor` finds Object.prototype's, which is never a string.
  if (typeof exact === 'string') return exact;
  let folded = foldedNames.get(definitions);
  if (folded === undefined) {
    folded = new Map();
    for (const key of Object.keys(definitions)) {
      const lower = key.toLowerCase();
      if (!folded.has(lower)) folded.set(lower, definitions[key]!);
    }
    foldedNames.set(definitions, folded);
  }
  return folded.get(name.toLowerCase());
}

/**
 * Checks an entity's `custom_properties` (at the context's current path) against `definitions`.
 * `where` names the definition block for messages, e.g. `local_user_properties of application type "x"`.
 */
export function checkCustomProperties(
  values: Record<string, unknown> | null | undefined,
  definitions: PropertyDefinitions,
  where: string,
  ctx: CheckContext,
): void {
  if (!values) return;
  for (const key in values) {
    const value = values[key];
    if (value === null || value === undefined) continue;
    const type = declaredType(definitions, key);
    if (type === undefined) {
      ctx.error(
        `custom property ${JSON.stringify(key)} is not declared in custom_property_definition (${where})`,
        'custom_properties',
        key,
      );
    } else if (!matches(type, value)) {
      ctx.error(`must be ${EXPECTED[type]}: the property is declared as ${type}`, 'custom_properties', key);
    }
  }
}
