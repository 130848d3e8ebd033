/**
 * What an identity reaches, as the emulator's effective access answers it (`POST /_emulator/access`,
 * the same computation as node queries and `oaa access`), turned into a small graph to draw: the
 * identity, the groups and accounts it acts as, the roles it holds, the permissions they grant and
 * the applications and resources those apply on, each step labelled with what it is, and one line
 * of text per grant saying how it is held.
 */
import type { AccessExplanation, AccessPathStep } from '@oaakit/core';
import type { GraphPayload } from './model.js';

/** A node of the answer: the identity, a step of a path, a permission, a destination. */
type NodeLabel = Pick<AccessExplanation, 'id' | 'type' | 'name'>;

/** A reach ready to draw: a graph payload whose edge kinds are the step names, and its texts. */
export interface AccessReach {
  payload: GraphPayload;
  /** For each destination and permission node id: how it is reached, one line per grant. */
  paths: Map<string, string[]>;
  /** Destinations (applications, resources) with their canonical permissions, in answer order. */
  destinations: { id: string; label: string; permissions: string[] }[];
  truncated: boolean;
}

/** How a relation reads in a path ("member of", "has role"). */
export function stepName(relation: string): string {
  return relation.toLowerCase().replaceAll('_', ' ');
}

const nameOf = (n: NodeLabel): string => n.name ?? n.id;

/** Builds the drawing and the texts of `access`. */
export function accessReach(access: AccessExplanation): AccessReach {
  const index = new Map<string, number>();
  const nodes: GraphPayload['nodes'] = [];
  const edges: GraphPayload['edges'] = [];
  const seenEdges = new Set<string>();
  const node = (n: NodeLabel): number => {
    let i = index.get(n.id);
    if (i === undefined) {
      i = nodes.push([n.id, n.type, nameOf(n)]) - 1;
      index.set(n.id, i);
    }
    return i;
  };
  const edge = (from: NodeLabel, to: NodeLabel, relation: string): void => {
    const key = `${from.id}\u0000${to.id}\u0000${relation}`;
    if (seenEdges.has(key)) return;
    seenEdges.add(key);
    edges.push([node(from), node(to), stepName(relation), -1]);
  };
  const walk = (path: AccessPathStep[]): NodeLabel => {
    let at: NodeLabel = access;
    for (const step of path) {
      edge(at, step, step.relation);
      at = step;
    }
    return at;
  };
  node(access);
  const roles = new Map<string, NodeLabel>();
  for (const m of access.memberships) {
    walk(m.path);
    if (/Role$/i.test(m.type)) roles.set(nameOf(m).toLowerCase(), m);
  }
  const paths = new Map<string, string[]>();
  const say = (id: string, text: string): void => {
    const list = paths.get(id) ?? [];
    if (!list.includes(text)) list.push(text);
    paths.set(id, list);
  };
  for (const d of access.destinations) {
    for (const g of d.grants) {
      const principal = walk(g.path);
      const words = [nameOf(access), ...g.path.map((s) => `${stepName(s.relation)} ${nameOf(s)}`)];
      let holder = principal;
      const role = g.role === null ? undefined : roles.get(g.role.toLowerCase());
      if (role !== undefined) {
        edge(principal, role, 'HAS_ROLE');
        words.push(`has role ${nameOf(role)}`);
        holder = role;
        const nested = g.nested_role === null ? undefined : roles.get(g.nested_role.toLowerCase());
        if (nested !== undefined && nested.id !== role.id) {
          edge(role, nested, 'ROLE_HAS_ROLE');
          words.push(`role has role ${nameOf(nested)}`);
          holder = nested;
        }
      }
      edge(holder, g.permission, role === undefined ? 'HAS_PERMISSION' : 'ROLE_HAS_PERMISSION');
      edge(g.permission, d, 'APPLIES_ON');
      words.push(`${role === undefined ? 'has permission' : 'role has permission'} ${nameOf(g.permission)}`);
      words.push(`applies on ${nameOf(d)}${g.inherited ? ' (inherited)' : ''}`);
      const text = words.join(' → ');
      say(d.id, text);
      say(g.permission.id, text);
    }
  }
  return {
    payload: { nodes, edges },
    paths,
    destinations: access.destinations.map((d) => ({
      id: d.id,
      label: `${nameOf(d)} (${d.type})`,
      permissions: d.permissions,
    })),
    truncated: access.truncated,
  };
}
