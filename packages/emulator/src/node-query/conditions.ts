/**
 * Condition specs of a node query, evaluated on a node. `property` is a node property (custom
 * properties as `customprop_<name>`), or `name`, `id` or `type`. Comparisons:
 *
 * - strings compare without case (`EQ`, `NOT_EQ`, `CONTAINS`, `STARTS_WITH`, `ENDS_WITH`; `GT`..`LTE`
 *   in code-point order of the lower-cased strings);
 * - numbers compare as numbers (a numeric string value is read as a number);
 * - booleans support `EQ` and `NOT_EQ` (`"true"` and `"false"` are read as booleans);
 * - two RFC 3339 timestamps compare as instants;
 * - a list property (a `STRING_LIST`, `identities`) holds when any element holds (`NOT_EQ`: none equals);
 * - a missing property satisfies only `NOT_EQ`.
 */
import { isRfc3339, type ConditionSpec } from '@oaakit/core';
import type { AccessNode } from '../access/graph-reads.js';

function propertyOf(node: AccessNode, property: string): unknown {
  if (property === 'id') return node.id;
  if (property === 'type') return node.type;
  if (property === 'name') return node.properties.name ?? node.name;
  // Only the node's own properties: `constructor` or `toString` is no property of a node.
  return Object.hasOwn(node.properties, property) ? node.properties[property] : undefined;
}

/** -1, 0 or 1, or undefined when the two values do not compare. */
function compare(actual: unknown, wanted: string | number | boolean): number | undefined {
  if (typeof actual === 'number') {
    const w = typeof wanted === 'string' && wanted.trim() !== '' ? Number(wanted) : wanted;
    return typeof w === 'number' && !Number.isNaN(w) ? Math.sign(actual - w) : undefined;
  }
  if (typeof actual === 'boolean') {
    const w = wanted === 'true' ? true : wanted === 'false' ? false : wanted;
    return typeof w === 'boolean' ? (actual === w ? 0 : actual ? 1 : -1) : undefined;
  }
  if (typeof actual === 'string') {
    const w = String(wanted);
    if (isRfc3339(actual) && isRfc3339(w)) return Math.sign(Date.parse(actual) - Date.parse(w));
    const a = actual.toLowerCase();
    const b = w.toLowerCase();
    return a === b ? 0 : a < b ? -1 : 1;
  }
  return undefined;
}

function holdsOne(fn: ConditionSpec['fn'], actual: unknown, wanted: string | number | boolean): boolean {
  if (fn === 'CONTAINS' || fn === 'STARTS_WITH' || fn === 'ENDS_WITH') {
    if (typeof actual !== 'string') return false;
    const a = actual.toLowerCase();
    const w = String(wanted).toLowerCase();
    return fn === 'CONTAINS' ? a.includes(w) : fn === 'STARTS_WITH' ? a.startsWith(w) : a.endsWith(w);
  }
  const c = compare(actual, wanted);
  if (c === undefined) return false;
  switch (fn) {
    case 'EQ':
      return c === 0;
    case 'NOT_EQ':
      return c !== 0;
    case 'GT':
      return c > 0;
    case 'GTE':
      return c >= 0;
    case 'LT':
      return c < 0;
    case 'LTE':
      return c <= 0;
  }
}

/** Whether `node` satisfies `spec`. */
export function holds(node: AccessNode, spec: ConditionSpec): boolean {
  const actual = propertyOf(node, spec.property);
  if (actual === undefined || actual === null) return spec.fn === 'NOT_EQ';
  if (Array.isArray(actual)) {
    if (spec.fn === 'NOT_EQ') return !actual.some((a) => holdsOne('EQ', a, spec.value));
    return actual.some((a) => holdsOne(spec.fn, a, spec.value));
  }
  return holdsOne(spec.fn, actual, spec.value);
}
