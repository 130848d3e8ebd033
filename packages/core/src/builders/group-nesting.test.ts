/**
 * The order groups are added in (parents first) and the memberships left out because they would
 * nest groups in a cycle: what a connector of a source that allows cycles relies on.
 */
import { describe, expect, it } from 'vitest';
import { orderGroups, withoutEdges } from './group-nesting.js';

const nesting = (edges: [string, string][]): Map<string, Set<string>> => {
  const out = new Map<string, Set<string>>();
  for (const [child, parent] of edges) out.set(child, (out.get(child) ?? new Set()).add(parent));
  return out;
};

describe('orderGroups', () => {
  it('puts every parent before its children, otherwise keeping the given order', () => {
    const { order, droppedEdges } = orderGroups(
      ['leaf', 'solo', 'mid', 'root'],
      nesting([
        ['leaf', 'mid'],
        ['mid', 'root'],
      ]),
    );
    expect(order).toEqual(['root', 'mid', 'leaf', 'solo']);
    expect(droppedEdges).toEqual([]);
  });

  it('leaves out the membership a walk from the first group meets closing a cycle', () => {
    const parents = nesting([
      ['ops', 'eng'],
      ['eng', 'ops'],
      ['all', 'eng'],
      ['self', 'self'],
    ]);
    const { order, droppedEdges } = orderGroups(['ops', 'eng', 'all', 'self'], parents);
    expect(droppedEdges).toEqual([
      ['eng', 'ops'],
      ['self', 'self'],
    ]);
    expect(order).toEqual(['eng', 'ops', 'all', 'self']);
    const kept = withoutEdges(parents, droppedEdges);
    expect([...kept.get('eng')!]).toEqual([]);
    expect([...kept.get('ops')!]).toEqual(['eng']);
    // The nesting given is left as it was.
    expect([...parents.get('eng')!]).toEqual(['ops']);
  });

  it('ignores parents it was not given, and walks nesting deeper than the call stack', () => {
    const depth = 50_000;
    const ids = Array.from({ length: depth }, (_, i) => `g${i}`);
    const parents = nesting([
      ...ids.slice(1).map((id, i) => [id, ids[i]!] as [string, string]),
      ['g0', 'gone'],
    ]);
    const { order, droppedEdges } = orderGroups([...ids].reverse(), parents);
    expect(order).toEqual(ids);
    expect(droppedEdges).toEqual([]);
  });
});
