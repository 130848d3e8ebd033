/**
 * Who a source node acts as: itself and every node whose grants it inherits, each with the path that
 * explains why. The links, as the service models them:
 *
 * - a local user or group is a member of its groups, and of their parent groups (`MEMBER_OF`);
 * - a local user holds its access credentials (`HAS_ACCESS_CRED`);
 * - an identity-provider user or group is a member of its identity-provider groups, and is linked to
 *   the local users and groups whose `identities` name it (its name, email or identity): it acts as
 *   them (`LINKED_ACCOUNT`);
 * - an HRIS employee is the identity-provider user its `idp_id` names, else the one its `email`
 *   names, else the one its `id` names (`HRIS_IDENTITY`; the first of these that matches wins).
 */
import type { AccessRelation } from '@oaakit/core';
import type { AccessNode, GraphReads } from './graph-reads.js';
import { ACCESS_LIMITS, AccessLimitError } from './limits.js';

/** How one node of a path follows from the node before it. */
export type Relation = AccessRelation;

/** One step of a path: the relation, and the node it leads to. */
export interface PathStep {
  relation: Relation;
  node: AccessNode;
}

/** A node the source acts as, and the path from the source to it (empty for the source itself). */
export interface Principal {
  node: AccessNode;
  via: PathStep[];
}

/** The identity-provider users an HRIS employee is: the first priority (`idp_id`, email, id) that matches. */
export function employeeIdentities(g: GraphReads, employee: AccessNode): AccessNode[] {
  const refs = g
    .out(employee.rid, 'HAS_IDENTITY')
    .filter((e) => e.ref !== null)
    .sort((a, b) => Number(a.props?.priority ?? 9) - Number(b.props?.priority ?? 9));
  for (const e of refs) {
    const users = g.nodesByKey(e.ref!).filter((n) => n.kind === 'idp_user');
    if (users.length > 0) return users;
  }
  return [];
}

/** The nodes `node` passes to directly, with the relation. */
function next(g: GraphReads, node: AccessNode): PathStep[] {
  const steps: PathStep[] = [];
  const follow = (kind: 'MEMBER_OF' | 'HAS_ACCESS_CRED'): void => {
    for (const n of g.outNodes(node.rid, kind)) steps.push({ relation: kind, node: n });
  };
  switch (node.kind) {
    case 'user':
      follow('MEMBER_OF');
      follow('HAS_ACCESS_CRED');
      break;
    case 'group':
      follow('MEMBER_OF');
      break;
    case 'idp_user':
    case 'idp_group':
      follow('MEMBER_OF');
      for (const key of g.identityKeys(node.rid)) {
        for (const e of g.byRef(key)) {
          if (e.kind !== 'HAS_IDENTITY' || e.src === null) continue;
          const local = g.node(e.src);
          if (local && (local.kind === 'user' || local.kind === 'group'))
            steps.push({ relation: 'LINKED_ACCOUNT', node: local });
        }
      }
      break;
    case 'hris_employee':
      for (const u of employeeIdentities(g, node)) steps.push({ relation: 'HRIS_IDENTITY', node: u });
      break;
    case 'access_cred':
    case 'application':
    case 'resource':
    case 'role':
    case 'permission':
    case 'other':
      break;
  }
  return steps;
}

/**
 * Every node `source` acts as, breadth first, so each comes with a shortest path. Throws
 * `AccessLimitError` past the depth bound.
 */
export function principalsOf(g: GraphReads, source: AccessNode, field: string): Principal[] {
  const seen = new Map<number, Principal>([[source.rid, { node: source, via: [] }]]);
  let frontier: Principal[] = [seen.get(source.rid)!];
  let depth = 0;
  while (frontier.length > 0) {
    const following: Principal[] = [];
    for (const p of frontier) {
      for (const step of next(g, p.node)) {
        if (seen.has(step.node.rid)) continue;
        if (depth >= ACCESS_LIMITS.depth)
          throw new AccessLimitError(
            field,
            `node ${source.id} reaches groups or identities nested more than ${ACCESS_LIMITS.depth} levels deep`,
          );
        const q: Principal = { node: step.node, via: [...p.via, step] };
        seen.set(step.node.rid, q);
        following.push(q);
      }
    }
    frontier = following;
    depth++;
  }
  return [...seen.values()];
}
