/**
 * Case-insensitive name registries. The service resolves names without regard to case: a role naming
 * `view` finds the permission `View`, and users `Bob` and `bob` are the same user.
 */
import type { CheckContext, PathSegment } from './context.js';

/** Lower-cases a name for comparison (ASCII fast path: most names are already lower case). */
export function fold(name: string): string {
  return name.toLowerCase();
}

/** A set of keys of one entity kind, reporting duplicates as it is filled. */
export class NameIndex {
  private readonly seen = new Map<string, number>();
  private readonly ops = new Map<number, string>();

  constructor(private readonly kind: string) {}

  /**
   * Registers `key` of the entity at `index`; reports a duplicate at `field` of that entity.
   * `operation` is the entity's incremental operation, if any: add and modify of one object in one
   * payload get their own message. Returns false on a duplicate.
   */
  add(key: string, index: number, ctx: CheckContext, field: PathSegment, operation?: string | null): boolean {
    const folded = fold(key);
    const first = this.seen.get(folded);
    if (first !== undefined) {
      const other = this.ops.get(first);
      if (operation && other && new Set([operation, other]).size === 2 && [operation, other].every((o) => o === 'add' || o === 'modify')) {
        ctx.error(`add and modify are never used on the same object in one payload: ${this.kind} ${JSON.stringify(key)} is also at index ${first}`, 'operation');
      } else {
        ctx.error(`duplicate ${this.kind} ${JSON.stringify(key)}: names and ids compare without case; the first is at index ${first}`, field);
      }
      return false;
    }
    this.seen.set(folded, index);
    if (operation) this.ops.set(index, operation);
    return true;
  }

  /** Registers a second key (an alias, such as a name beside a unique id) without duplicate checks. */
  alias(key: string, index: number): void {
    const folded = fold(key);
    if (!this.seen.has(folded)) this.seen.set(folded, index);
  }

  has(key: string): boolean {
    return this.seen.has(fold(key));
  }

  get(key: string): number | undefined {
    return this.seen.get(fold(key));
  }

  get size(): number {
    return this.seen.size;
  }
}

/** Finds cycles in a graph of nodes by index; returns one cycle per strongly connected loop found. */
export function findCycles(edges: readonly (readonly number[])[]): number[][] {
  const state = new Uint8Array(edges.length); // 0 new, 1 on stack, 2 done
  const cycles: number[][] = [];
  const stack: number[] = [];
  const visit = (start: number) => {
    // Iterative DFS so deep nesting cannot overflow the call stack.
    const work: [number, number][] = [[start, 0]];
    state[start] = 1;
    stack.push(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const [node, next] = top;
      const targets = edges[node] ?? [];
      if (next < targets.length) {
        top[1]++;
        const target = targets[next]!;
        if (state[target] === 1) cycles.push(stack.slice(stack.indexOf(target)));
        else if (state[target] === 0) {
          state[target] = 1;
          stack.push(target);
          work.push([target, 0]);
        }
      } else {
        state[node] = 2;
        stack.pop();
        work.pop();
      }
    }
  };
  for (let i = 0; i < edges.length; i++) if (state[i] === 0) visit(i);
  return cycles;
}
