/**
 * Case-insensitive name registries. The service resolves names without regard to case: a role naming
 * `view` finds the permission `View`, and users `Bob` and `bob` are the same user.
 */
import { NameTable } from '../internal/name-table.js';
import type { CheckContext, PathSegment } from './context.js';

/** Lower-cases a name for comparison. */
export function fold(name: string): string {
  return name.toLowerCase();
}

/** The message of a key that repeats an earlier one (at index `first`) of the same kind. */
export function duplicateMessage(kind: string, key: string, first: number): string {
  return `duplicate ${kind} ${JSON.stringify(key)}: names and ids compare without case; the first is at index ${first}`;
}

/** A set of keys of one entity kind, reporting duplicates as it is filled. */
export class NameIndex {
  private readonly table = NameTable.ofPositions();
  private readonly ops = new Map<number, string>();
  private aliases: NameTable<number> | undefined;
  private lastFound = -1;

  constructor(private readonly kind: string) {}

  /**
   * Registers `key` of the entity at `index` (`salt` separates keys of different sub-kinds, such as
   * identity types); reports a duplicate at `field` of that entity. `operation` is the entity's
   * incremental operation, if any: add and modify of one object in one payload get their own
   * message. Returns false on a duplicate.
   */
  add(
    key: string,
    index: number,
    ctx: CheckContext,
    field: PathSegment,
    operation?: string | null,
    salt = 0,
  ): boolean {
    const existing = this.table.insert(key, index, salt);
    if (existing === -1) {
      if (operation) this.ops.set(index, operation);
      return true;
    }
    const first = this.table.valueAt(existing);
    const other = this.ops.get(first);
    if (
      operation &&
      other &&
      operation !== other &&
      (operation === 'add' || operation === 'modify') &&
      (other === 'add' || other === 'modify')
    ) {
      ctx.error(
        `add and modify are never used on the same object in one payload: ${this.kind} ${JSON.stringify(key)} is also at index ${first}`,
        'operation',
      );
    } else {
      ctx.error(duplicateMessage(this.kind, key, first), field);
    }
    return false;
  }

  /**
   * Registers `key` of the entity at `index` like `add`, but finds repeated keys only at `flush`:
   * for a million users, one pass at the end is several times cheaper than a lookup per user. No
   * lookup may come in between. Not for incremental payloads (no operations).
   */
  addLater(key: string, index: number): void {
    this.table.append(key, index);
  }

  /**
   * Reports every key added by `addLater` that repeats an earlier one, at the context's path plus
   * the entity's index and `field(index)`.
   */
  /** `alias`, for keys added with `addLater`: indexed at `flush`. */
  aliasLater(key: string, index: number): void {
    (this.aliases ??= NameTable.ofPositions()).append(key, index);
  }

  flush(ctx: CheckContext, field: (index: number) => PathSegment): void {
    // Aliases keep the first entity of a name, as `alias` does.
    this.aliases?.indexPending(() => undefined);
    this.table.indexPending((entry, earlier) => {
      const index = this.table.valueAt(entry);
      const key = this.table.keyAt(entry);
      ctx.error(duplicateMessage(this.kind, key, this.table.valueAt(earlier)), index, field(index));
    });
  }

  /**
   * Registers a second name (such as a name beside a unique id) that references may use. Aliases
   * live apart from keys, so an alias never makes a later key a duplicate; keys win on lookup.
   */
  alias(key: string, index: number): void {
    (this.aliases ??= NameTable.ofPositions()).insert(key, index);
  }

  has(key: string, salt = 0): boolean {
    return (
      this.table.find(key, salt) !== -1 || (this.aliases !== undefined && this.aliases.find(key, salt) !== -1)
    );
  }

  /**
   * The position of `key` among the keys (not aliases) in the order they were added, or -1.
   * Connectors usually name entities in the order they added them (grants follow users), so the
   * entry after the last one found is tried first: a comparison instead of a hash-table probe.
   */
  keyIndex(key: string, salt = 0): number {
    const guess = this.lastFound + 1;
    if (guess < this.table.size && this.table.holds(guess, key, salt)) {
      this.lastFound = guess;
      return guess;
    }
    const found = this.table.find(key, salt);
    if (found !== -1) this.lastFound = found;
    return found;
  }

  get(key: string): number | undefined {
    const i = this.table.find(key);
    if (i !== -1) return this.table.valueAt(i);
    const j = this.aliases?.find(key) ?? -1;
    return j === -1 ? undefined : this.aliases!.valueAt(j);
  }

  get size(): number {
    return this.table.size;
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
