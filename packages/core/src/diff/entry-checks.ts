/**
 * Checks of single incremental entries: which operation an entry asks for, and whether it clashes
 * with an earlier entry for the same object in the same payload.
 */

import type { Violation } from '../errors.js';
import type { KindSpec } from './entity-kinds.js';
import type { JsonObject } from './json.js';
import { OPERATIONS } from '../schemas/common.js';
import { isOperation } from './operations.js';

/** An operation as tracked for conflicts; `none` is a containing entry without operation. */
export type Tracked = 'add' | 'modify' | 'delete' | 'add_tag' | 'remove_tag' | 'none';

const EXPECTED = OPERATIONS.join(', ');

function describe(op: Tracked): string {
  return op === 'none' ? 'an entry without operation' : `operation '${op}'`;
}

/**
 * The operation of `entry` (`delete_tag` read as `remove_tag`, `none` for a containing entry
 * without operation), or `undefined` after reporting an unknown or missing one.
 */
export function operationOf(
  spec: KindSpec,
  entry: JsonObject,
  opPath: string,
  violations: Violation[],
): Tracked | undefined {
  const op = entry.operation;
  if (op === undefined || op === null) {
    if (spec.children.length > 0) return 'none';
    violations.push({
      field: opPath,
      description: `operation is required for a ${spec.label}: one of ${EXPECTED}`,
    });
    return undefined;
  }
  if (!isOperation(op)) {
    violations.push({
      field: opPath,
      description: `unknown operation ${JSON.stringify(op)}: expected one of ${EXPECTED}`,
    });
    return undefined;
  }
  return op === 'delete_tag' ? 'remove_tag' : op;
}

/**
 * Operations seen per object within one collection of one payload. Each object takes an operation
 * at most once, never both `add` and `modify`, and nothing besides a `delete`.
 */
export class OperationLog {
  private readonly seen = new Map<string, Map<Tracked, string>>();

  /** Records `op` for the object `key`; returns what is wrong when it clashes with an earlier entry. */
  record(key: string, op: Tracked, path: string, name: string): string | undefined {
    let ops = this.seen.get(key);
    if (ops === undefined) {
      ops = new Map();
      this.seen.set(key, ops);
    }
    const problem = clash(ops, op, name);
    if (problem === undefined) ops.set(op, path);
    return problem;
  }
}

function clash(ops: ReadonlyMap<Tracked, string>, op: Tracked, name: string): string | undefined {
  const at = (other: Tracked): string => ops.get(other) ?? '';
  if (ops.has(op)) return `${name} has ${describe(op)} more than once in this payload (also at ${at(op)})`;
  if ((op === 'add' && ops.has('modify')) || (op === 'modify' && ops.has('add'))) {
    const other = op === 'add' ? 'modify' : 'add';
    return `${name} is both added and modified in this payload (also at ${at(other)}); add and modify cannot be used on the same object`;
  }
  if (ops.has('delete'))
    return `${name} is deleted and also has ${describe(op)} in this payload (deleted at ${at('delete')})`;
  const [first] = ops.entries();
  if (op === 'delete' && first !== undefined) {
    return `${name} is deleted and also has ${describe(first[0])} in this payload (at ${first[1]})`;
  }
  return undefined;
}
