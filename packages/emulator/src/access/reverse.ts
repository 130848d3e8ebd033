/**
 * Who reaches a destination node, and with which canonical permissions: the inverse of
 * `effective-access.ts`, walked from the destination back through role and permission grants, group
 * members, linked accounts and HRIS employees. For `DESTINATION_NODES` node queries, which start from
 * the destination. Bounded by `ACCESS_LIMITS` (depth and nodes visited).
 */
import type { PermissionType } from '@oaakit/core';
import { GrantReads } from './grants.js';
import type { AccessNode, EdgeRow, GraphReads } from './graph-reads.js';
import { ACCESS_LIMITS, AccessLimitError } from './limits.js';
import { isIdentityKind } from './node-kind.js';
import { employeeIdentities } from './principals.js';

/** Every node that reaches the destination, by row id, with the canonical types it holds on it. */
export type Reachers = Map<number, { node: AccessNode; permissions: Set<PermissionType> }>;

/** Walks grants and links backwards; one instance serves one request. */
export class ReverseAccessReader {
  private readonly grants: GrantReads;

  constructor(readonly g: GraphReads) {
    this.grants = new GrantReads(g);
  }

  /** The principals a grant edge names: its source node, or the identity-provider nodes it names. */
  private holders(e: EdgeRow): AccessNode[] {
    if (e.src !== null) {
      const n = this.g.node(e.src);
      return n ? [n] : [];
    }
    if (e.ref === null) return [];
    return this.g.nodesByKey(e.ref).filter((n) => n.kind === 'idp_user' || n.kind === 'idp_group');
  }

  /** The nodes that relate to `dest` directly, with the types held on it. */
  private seeds(dest: AccessNode): Reachers {
    const out: Reachers = new Map();
    const add = (n: AccessNode, types: readonly PermissionType[]): void => {
      let r = out.get(n.rid);
      if (!r) out.set(n.rid, (r = { node: n, permissions: new Set() }));
      for (const t of types) r.permissions.add(t);
    };
    if (dest.kind === 'application' || dest.kind === 'resource') {
      for (const e of this.g.grantsOn(dest.rid)) {
        const x = this.grants.expand(e);
        if (x.grants.length === 0) continue;
        for (const h of this.holders(e))
          add(
            h,
            x.grants.flatMap((dg) => dg.canonical),
          );
      }
    } else if (dest.kind === 'role') {
      for (const e of this.g.in(dest.rid, 'HAS_ROLE')) for (const h of this.holders(e)) add(h, []);
    } else if (isIdentityKind(dest.kind)) {
      add(dest, []);
    }
    return out;
  }

  /** The nodes whose grants include `p`'s: the inverse of one step of `principalsOf`. */
  private inheritors(p: AccessNode): AccessNode[] {
    const out: AccessNode[] = [];
    switch (p.kind) {
      case 'group':
      case 'user':
        if (p.kind === 'group') out.push(...this.g.inNodes(p.rid, 'MEMBER_OF'));
        if (!this.g.hasIdentityProviders()) break;
        for (const e of this.g.out(p.rid, 'HAS_IDENTITY'))
          if (e.ref !== null)
            out.push(
              ...this.g.nodesByKey(e.ref).filter((n) => n.kind === 'idp_user' || n.kind === 'idp_group'),
            );
        break;
      case 'access_cred':
        out.push(...this.g.inNodes(p.rid, 'HAS_ACCESS_CRED'));
        break;
      case 'idp_group':
        out.push(...this.g.inNodes(p.rid, 'MEMBER_OF'));
        break;
      case 'idp_user':
        for (const key of this.g.identityKeys(p.rid))
          for (const e of this.g.byRef(key)) {
            if (e.kind !== 'HAS_IDENTITY' || e.src === null) continue;
            const emp = this.g.node(e.src);
            if (emp?.kind === 'hris_employee' && employeeIdentities(this.g, emp).some((u) => u.rid === p.rid))
              out.push(emp);
          }
        break;
      case 'hris_employee':
      case 'application':
      case 'resource':
      case 'role':
      case 'permission':
      case 'other':
        break;
    }
    return out;
  }

  /** Every node that reaches `dest` (never `dest` itself). `field` names the field a bound error points at. */
  of(dest: AccessNode, field: string): Reachers {
    const found = this.seeds(dest);
    const depth = new Map<number, number>();
    const work: AccessNode[] = [];
    for (const r of found.values()) {
      depth.set(r.node.rid, 0);
      work.push(r.node);
    }
    while (work.length > 0) {
      const p = work.pop()!;
      const from = found.get(p.rid)!;
      const d = depth.get(p.rid)! + 1;
      for (const n of this.inheritors(p)) {
        let r = found.get(n.rid);
        let grew = false;
        if (!r) {
          if (found.size >= ACCESS_LIMITS.reverseVisits)
            throw new AccessLimitError(
              field,
              `more than ${ACCESS_LIMITS.reverseVisits} identities reach node ${dest.id}; narrow the query with node_id or conditions`,
            );
          if (d > ACCESS_LIMITS.depth)
            throw new AccessLimitError(
              field,
              `identities reach node ${dest.id} through more than ${ACCESS_LIMITS.depth} levels of nesting`,
            );
          found.set(n.rid, (r = { node: n, permissions: new Set() }));
          depth.set(n.rid, d);
          grew = true;
        }
        for (const t of from.permissions)
          if (!r.permissions.has(t)) {
            r.permissions.add(t);
            grew = true;
          }
        if (grew) work.push(n);
      }
    }
    found.delete(dest.rid);
    return found;
  }
}
