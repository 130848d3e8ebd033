/**
 * Orders groups so that every parent comes before its children, as the payload builders require
 * (a local group's `groups` must already exist), and finds the memberships that would nest groups
 * in a cycle, which no payload may hold. Sources do not all forbid cycles (SCIM does not): a
 * connector leaves those memberships out and reports them.
 */

/** The order, and the `[child, parent]` edges left out because they closed a cycle. */
export interface GroupOrder {
  order: string[];
  droppedEdges: [child: string, parent: string][];
}

/**
 * `ids` ordered parents first (otherwise in their given order); `parents` maps a group id to the ids
 * of the groups it is a member of. Parents not in `ids` are ignored. An edge is dropped when a
 * depth-first walk from each group in turn, following parents in their given order, meets it
 * closing a cycle.
 *
 * @example
 * const { order, droppedEdges } = orderGroups(['a', 'b'], new Map([['a', new Set(['b'])], ['b', new Set(['a'])]]));
 * // order ['b', 'a'], droppedEdges [['b', 'a']]
 */
export function orderGroups(
  ids: readonly string[],
  parents: ReadonlyMap<string, ReadonlySet<string>>,
): GroupOrder {
  const known = new Set(ids);
  const done = new Set<string>();
  const active = new Set<string>();
  const order: string[] = [];
  const droppedEdges: [string, string][] = [];

  // Iterative depth-first search: nesting can be deep enough to overflow the call stack.
  for (const root of ids) {
    if (done.has(root)) continue;
    const stack: { id: string; next: string[] }[] = [{ id: root, next: [...(parents.get(root) ?? [])] }];
    active.add(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const parent = top.next.shift();
      if (parent === undefined) {
        stack.pop();
        active.delete(top.id);
        done.add(top.id);
        order.push(top.id);
        continue;
      }
      if (!known.has(parent)) continue;
      if (active.has(parent)) {
        droppedEdges.push([top.id, parent]);
        continue;
      }
      if (done.has(parent)) continue;
      active.add(parent);
      stack.push({ id: parent, next: [...(parents.get(parent) ?? [])] });
    }
  }
  return { order, droppedEdges };
}

/** `parents` without the dropped edges. */
export function withoutEdges(
  parents: ReadonlyMap<string, ReadonlySet<string>>,
  dropped: readonly (readonly [string, string])[],
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [child, set] of parents) out.set(child, new Set(set));
  for (const [child, parent] of dropped) out.get(child)?.delete(parent);
  return out;
}
