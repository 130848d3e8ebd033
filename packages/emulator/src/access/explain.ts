/**
 * "What can this identity reach, with which canonical permissions, and why": effective access as
 * plain JSON, with every path spelled out by node ids, types and names. Served by
 * `POST /_emulator/access` for `oaa access` (and meant for a graph explorer).
 */
import type { AccessExplanation, AccessPathStep } from '@oaakit/core';
import type { Db } from '../db/schema.js';
import { EffectiveAccessReader } from './effective-access.js';
import type { AccessNode, GraphReads } from './graph-reads.js';
import { isIdentityKind } from './node-kind.js';
import type { PathStep } from './principals.js';

/** The effective access of one source (the shape is `@oaakit/core`'s `accessExplanationSchema`). */
export type AccessView = AccessExplanation;
type NodeLabel = Pick<AccessExplanation, 'id' | 'type' | 'name'>;
type DestinationView = AccessExplanation['destinations'][number];
type MembershipView = AccessExplanation['memberships'][number];

export const ACCESS_VIEW_LIMITS = { sources: 20, destinations: 10_000 } as const;

const label = (n: AccessNode): NodeLabel => ({ id: n.id, type: n.type, name: n.name });
const steps = (via: PathStep[]): AccessPathStep[] =>
  via.map((s) => ({ relation: s.relation, ...label(s.node) }));

/**
 * The identities `identity` names: a node id, or the name, email or identity of users, groups,
 * identity-provider entities, employees and access credentials (without case). At most
 * `ACCESS_VIEW_LIMITS.sources`.
 */
export function resolveIdentity(db: Db, g: GraphReads, identity: string): AccessNode[] {
  const byId = g.nodeById(identity);
  if (byId) return [byId];
  const folded = identity.toLowerCase();
  const found = new Map<number, AccessNode>();
  for (const n of g.nodesByKey(folded)) found.set(n.rid, n);
  const rows = db
    .prepare<[string], { rid: number }>('SELECT rid FROM nodes WHERE lower(name) = ? ORDER BY rid LIMIT 200')
    .all(folded);
  for (const { rid } of rows) {
    const n = g.node(rid);
    if (n) found.set(n.rid, n);
  }
  return [...found.values()].filter((n) => isIdentityKind(n.kind)).slice(0, ACCESS_VIEW_LIMITS.sources);
}

/** The effective access of `source`, explained. */
export function explainAccess(g: GraphReads, source: AccessNode, field: string): AccessView {
  const access = new EffectiveAccessReader(g).of(source, field);
  const destinations: DestinationView[] = [];
  const memberships: MembershipView[] = [];
  for (const r of access.reached.values()) {
    if (r.grants.length > 0) {
      destinations.push({
        ...label(r.node),
        permissions: r.permissions,
        grants: r.grants.map((x) => ({
          permission: label(x.permission),
          canonical: x.canonical,
          path: steps(x.via),
          role: x.role ?? null,
          nested_role: x.nestedRole ?? null,
          inherited: x.inherited,
        })),
      });
    } else if (r.via) memberships.push({ ...label(r.node), path: steps(r.via) });
  }
  return {
    ...label(source),
    destinations: destinations.slice(0, ACCESS_VIEW_LIMITS.destinations),
    memberships,
    truncated: destinations.length > ACCESS_VIEW_LIMITS.destinations,
  };
}
