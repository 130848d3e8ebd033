/**
 * The group index: every group read, who is directly in which group (by member DN, by `memberUid`
 * login, and by AD primary-group SID), and the nesting of groups with its cycles broken.
 *
 * A cycle (A is in B, B is in A: nesting through a loop) makes every member of one of its groups a
 * member of all of them, which a directory's own transitive answers say too. The payload may not
 * hold a cycle, so the memberships that close one (the back edges of a depth-first walk in DN
 * order) are left out of the nesting, and reported. Every member of a cycle's groups, users and
 * groups outside the cycle alike, is then also put in the cycle's entry group (the first one the
 * walk reached), from which the remaining memberships reach every group of the cycle and what it
 * is in: transitive membership stays exactly what the directory says.
 */
import { normalizeDn } from './dn.js';
import type { DirectoryGroup } from './flavor.js';

/** A cycle of the nesting, as reported. */
export interface GroupCycle {
  /** The DNs of the groups that reach each other, in DN order. */
  groups: string[];
  /** The memberships left out of the nesting: [member group DN, group DN]. */
  dropped: [string, string][];
  /** The group that members of the cycle's groups are also put in. */
  entry: string;
}

type Ids = number | number[];

function push(map: Map<string, Ids>, key: string, i: number): void {
  const had = map.get(key);
  if (had === undefined) map.set(key, i);
  else if (typeof had === 'number') {
    if (had !== i) map.set(key, [had, i]);
  } else if (had[had.length - 1] !== i) had.push(i);
}

function each(ids: Ids | undefined, f: (i: number) => void): void {
  if (ids === undefined) return;
  if (typeof ids === 'number') f(ids);
  else for (const i of ids) f(i);
}

export class GroupIndex {
  private pending: DirectoryGroup[] = [];
  private finished = false;
  /** The groups, in normalised-DN order. */
  groups: DirectoryGroup[] = [];
  /** For each group, the groups it is in, after the cycles are broken (indexes, ascending). */
  parents: number[][] = [];
  /** The cycles found, each broken. */
  cycles: GroupCycle[] = [];
  private readonly memberOf = new Map<string, Ids>();
  private readonly uidMemberOf = new Map<string, Ids>();
  private readonly bySid = new Map<string, number>();
  private entry = new Int32Array(0);
  private component = new Int32Array(0);

  /** Adds a group as read. */
  add(group: DirectoryGroup): void {
    if (this.finished) throw new Error('the group index is finished');
    this.pending.push(group);
  }

  /** The number of groups added. */
  get size(): number {
    return this.finished ? this.groups.length : this.pending.length;
  }

  /**
   * Indexes the groups once all are read: orders them, resolves who is in which, and breaks the
   * nesting's cycles. The groups' member lists are released.
   */
  finish(): void {
    const keyed = this.pending
      .map((g) => ({ g, key: normalizeDn(g.dn) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .filter((x, i, all) => i === 0 || all[i - 1]!.key !== x.key);
    this.pending = [];
    this.finished = true;
    this.groups = keyed.map((x) => x.g);
    this.groups.forEach((g, i) => {
      for (const dn of g.memberDns) push(this.memberOf, normalizeDn(dn), i);
      for (const uid of g.memberUids) push(this.uidMemberOf, uid, i);
      if (g.sid !== undefined) this.bySid.set(g.sid.toUpperCase(), i);
      g.memberDns = [];
      g.memberUids = [];
    });
    const direct = keyed.map((x) => {
      const parents: number[] = [];
      each(this.memberOf.get(x.key), (p) => parents.push(p));
      return parents;
    });
    this.breakCycles(direct);
  }

  /**
   * Tarjan's strongly connected components over "member group -> group", iteratively (nesting may
   * be deep), in index order: the back edges found are the memberships left out, and each
   * component's root (its first group reached) is its entry group.
   */
  private breakCycles(direct: number[][]): void {
    const n = direct.length;
    const order = new Int32Array(n).fill(-1);
    const low = new Int32Array(n);
    const onStack = new Uint8Array(n);
    const onPath = new Uint8Array(n);
    const component = new Int32Array(n).fill(-1);
    const entry = new Int32Array(n).fill(-1);
    const back: Set<number>[] = [];
    const stack: number[] = [];
    let counter = 0;
    let components = 0;
    for (let start = 0; start < n; start++) {
      if (order[start] !== -1) continue;
      const frames: [number, number][] = [[start, 0]];
      order[start] = low[start] = counter++;
      stack.push(start);
      onStack[start] = onPath[start] = 1;
      while (frames.length > 0) {
        const frame = frames[frames.length - 1]!;
        const v = frame[0];
        const parents = direct[v]!;
        if (frame[1] < parents.length) {
          const w = parents[frame[1]++]!;
          if (order[w] === -1) {
            order[w] = low[w] = counter++;
            stack.push(w);
            onStack[w] = onPath[w] = 1;
            frames.push([w, 0]);
          } else {
            if (onPath[w] === 1) (back[v] ??= new Set()).add(w);
            if (onStack[w] === 1) low[v] = Math.min(low[v]!, order[w]!);
          }
          continue;
        }
        frames.pop();
        onPath[v] = 0;
        if (frames.length > 0) {
          const u = frames[frames.length - 1]![0];
          low[u] = Math.min(low[u]!, low[v]!);
        }
        if (low[v] !== order[v]) continue;
        const members: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component[w] = components;
          members.push(w);
        } while (w !== v);
        components++;
        if (members.length > 1 || back[v]?.has(v) === true) {
          for (const m of members) entry[m] = v;
          members.sort((a, b) => a - b);
          const dropped: [string, string][] = [];
          for (const m of members)
            for (const p of back[m] ?? []) dropped.push([this.groups[m]!.dn, this.groups[p]!.dn]);
          this.cycles.push({
            groups: members.map((m) => this.groups[m]!.dn),
            dropped,
            entry: this.groups[v]!.dn,
          });
        }
      }
    }
    this.entry = entry;
    this.component = component;
    this.parents = direct.map((parents, c) => {
      const kept = parents.filter((p) => back[c]?.has(p) !== true);
      return this.withEntries(kept, component[c]);
    });
  }

  /** `groups` plus the entry group of each cycle one of them is in, unless `own` is that cycle. */
  private withEntries(groups: number[], own = -1): number[] {
    const out = new Set(groups);
    for (const g of groups) {
      const e = this.entry[g]!;
      if (e !== -1 && this.component[g] !== own) out.add(e);
    }
    return [...out].sort((a, b) => a - b);
  }

  /**
   * The groups an entry is directly in (with the entry groups of cycles added): those that list
   * its DN, those whose `memberUid` lists its login, and those whose SID `implicitSids` names.
   */
  groupsOf(dn: string, login?: string, implicitSids?: readonly string[]): number[] {
    const found: number[] = [];
    each(this.memberOf.get(normalizeDn(dn)), (i) => found.push(i));
    if (login !== undefined) each(this.uidMemberOf.get(login), (i) => found.push(i));
    for (const sid of implicitSids ?? []) {
      const i = this.bySid.get(sid.toUpperCase());
      if (i !== undefined) found.push(i);
    }
    return this.withEntries(found);
  }
}
