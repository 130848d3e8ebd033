/**
 * The group index on its own: nesting with cycles, checked against the transitive membership of
 * the nesting as the directory has it, on random directories.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DirectoryGroup } from './flavor.js';
import { GroupIndex } from './groups.js';

function group(name: string, members: string[], memberUids: string[] = []): DirectoryGroup {
  return { id: `id-${name}`, dn: `cn=${name},dc=x`, name, memberDns: members, memberUids, properties: {} };
}

/** Every group reachable from `start` through `parents` (not `start` itself unless on a cycle). */
function reach(start: number[], parents: number[][]): Set<number> {
  const seen = new Set<number>();
  const todo = [...start];
  while (todo.length > 0) {
    const g = todo.pop()!;
    if (seen.has(g)) continue;
    seen.add(g);
    todo.push(...parents[g]!);
  }
  return seen;
}

function hasCycle(parents: number[][]): boolean {
  const state = new Uint8Array(parents.length);
  const visit = (g: number): boolean => {
    if (state[g] === 1) return true;
    if (state[g] === 2) return false;
    state[g] = 1;
    const found = parents[g]!.some(visit);
    state[g] = 2;
    return found;
  };
  return parents.some((_, g) => visit(g));
}

describe('the group index', () => {
  it('finds direct groups by member DN (any case), memberUid and SID', () => {
    const index = new GroupIndex();
    index.add(group('b', ['UID=Ann, DC=X']));
    index.add(group('a', ['uid=bob,dc=x'], ['ann']));
    index.add({ ...group('c', []), sid: 'S-1-5-21-1-2-3-513' });
    index.finish();
    expect(index.groups.map((g) => g.name)).toEqual(['a', 'b', 'c']);
    const names = (ids: number[]) => ids.map((i) => index.groups[i]!.name);
    expect(names(index.groupsOf('uid=ann,dc=x', 'ann'))).toEqual(['a', 'b']);
    expect(names(index.groupsOf('uid=bob,dc=x', 'bob', ['s-1-5-21-1-2-3-513']))).toEqual(['a', 'c']);
    expect(index.groupsOf('uid=nobody,dc=x')).toEqual([]);
  });

  it('breaks a cycle, reports it, and keeps every member in every group of the cycle', () => {
    const index = new GroupIndex();
    index.add(group('a', ['cn=c,dc=x', 'uid=u,dc=x']));
    index.add(group('b', ['cn=a,dc=x']));
    index.add(group('c', ['cn=b,dc=x']));
    index.add(group('top', ['cn=b,dc=x']));
    index.finish();
    expect(index.cycles).toEqual([
      {
        groups: ['cn=a,dc=x', 'cn=b,dc=x', 'cn=c,dc=x'],
        dropped: [['cn=c,dc=x', 'cn=a,dc=x']],
        entry: 'cn=a,dc=x',
      },
    ]);
    expect(hasCycle(index.parents)).toBe(false);
    const names = [...reach(index.groupsOf('uid=u,dc=x'), index.parents)].map((i) => index.groups[i]!.name);
    expect(names.sort()).toEqual(['a', 'b', 'c', 'top']);
  });

  it('on random directories: no cycle is left, and every entry is in the groups the nesting puts it in', () => {
    const directory = fc.record({
      groups: fc.integer({ min: 1, max: 12 }),
      edges: fc.array(fc.tuple(fc.nat(11), fc.nat(11)), { maxLength: 40 }),
      users: fc.array(fc.array(fc.nat(11), { maxLength: 4 }), { maxLength: 8 }),
    });
    fc.assert(
      fc.property(directory, ({ groups, edges, users }) => {
        const n = groups;
        // Member lists: edge [child, parent] lists group child in group parent.
        const members: string[][] = Array.from({ length: n }, () => []);
        const truth: number[][] = Array.from({ length: n }, () => []);
        for (const [c, p] of edges) {
          if (c >= n || p >= n) continue;
          members[p]!.push(`cn=g${c},dc=x`);
          truth[c]!.push(p);
        }
        users.forEach((gs, u) => {
          for (const g of gs) if (g < n) members[g]!.push(`uid=u${u},dc=x`);
        });
        // The index orders groups by DN (g10 before g2): `order` maps back to the numbers.
        const fixed = new GroupIndex();
        for (let g = 0; g < n; g++) fixed.add(group(`g${g}`, members[g]!));
        fixed.finish();
        const order = fixed.groups.map((gr) => Number(gr.name.slice(1)));
        const at = new Map(order.map((g, i) => [g, i]));
        expect(hasCycle(fixed.parents)).toBe(false);
        users.forEach((gs, u) => {
          const direct = gs.filter((g) => g < n);
          const want = [...reach(direct, truth)].sort((a, b) => a - b);
          const got = [...reach(fixed.groupsOf(`uid=u${u},dc=x`), fixed.parents)]
            .map((i) => order[i]!)
            .sort((a, b) => a - b);
          expect(got).toEqual(want);
        });
        // A group outside a cycle reaches the same groups as before (a cycle's own groups may lose
        // the memberships that closed it, which the report lists).
        for (let g = 0; g < n; g++) {
          const onCycle = reach(truth[g]!, truth).has(g);
          if (onCycle) continue;
          const want = [...reach(truth[g]!, truth)].sort((a, b) => a - b);
          const got = [...reach(fixed.parents[at.get(g)!]!, fixed.parents)]
            .map((i) => order[i]!)
            .sort((a, b) => a - b);
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
  });
});
