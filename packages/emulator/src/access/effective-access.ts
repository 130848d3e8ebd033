/**
 * Effective access of one source node: every node it reaches (the applications and resources it
 * holds permissions on, the groups and accounts it acts as, the roles it holds), with the canonical
 * permission types it holds on each and why: the path through groups, linked accounts and roles.
 * Node queries (`node-query/`), `/_emulator/access` and `oaa access` all read it from here.
 */
import { PERMISSION_TYPES, type PermissionType } from '@oaakit/core';
import { GrantReads } from './grants.js';
import type { AccessNode, GraphReads } from './graph-reads.js';
import { principalsOf, type PathStep } from './principals.js';

/** One reason the source holds a permission on a node. */
export interface AccessGrant {
  permission: AccessNode;
  canonical: PermissionType[];
  /** From the source to the principal holding the grant (empty: the source itself). */
  via: PathStep[];
  /** The role held, when the permission comes through one. */
  role?: string;
  /** The role nested in `role` that holds the permission. */
  nestedRole?: string;
  /** Passed down from a parent resource (`apply_to_sub_resources`). */
  inherited: boolean;
}

/** A node the source reaches. */
export interface Reached {
  node: AccessNode;
  /** Canonical permission types held on the node, in the spec's order. */
  permissions: PermissionType[];
  grants: AccessGrant[];
  /** For a group, account or role the source acts as or holds: the path to it. */
  via?: PathStep[];
}

/** Everything one source reaches, by node row id. */
export interface EffectiveAccess {
  source: AccessNode;
  reached: Map<number, Reached>;
}

/** Orders canonical types as the spec lists them. */
export function canonicalOrder(types: Iterable<string>): PermissionType[] {
  const set = new Set(types);
  return PERMISSION_TYPES.filter((t) => set.has(t));
}

/** Computes effective access; one instance serves one request (it caches what it reads). */
export class EffectiveAccessReader {
  private readonly grants: GrantReads;

  constructor(readonly g: GraphReads) {
    this.grants = new GrantReads(g);
  }

  /** What `source` reaches. `field` names the request field a bound error points at. */
  of(source: AccessNode, field: string): EffectiveAccess {
    const reached = new Map<number, Reached>();
    const sets = new Map<number, Set<PermissionType>>();
    const reach = (node: AccessNode, via?: PathStep[]): Reached => {
      let r = reached.get(node.rid);
      if (!r) {
        r = { node, permissions: [], grants: [], ...(via === undefined ? {} : { via }) };
        reached.set(node.rid, r);
        sets.set(node.rid, new Set());
      }
      return r;
    };
    for (const p of principalsOf(this.g, source, field)) {
      if (p.node.rid !== source.rid) reach(p.node, p.via);
      const held = this.grants.of(p.node);
      for (const rh of held.roles) {
        if (!reached.has(rh.role.rid)) reach(rh.role, [...p.via, { relation: 'HAS_ROLE', node: rh.role }]);
      }
      for (const dg of held.grants) {
        const r = reach(dg.scope);
        const grant: AccessGrant = {
          permission: dg.permission,
          canonical: dg.canonical,
          via: p.via,
          inherited: dg.inherited,
          ...(dg.role === undefined ? {} : { role: dg.role }),
          ...(dg.nestedRole === undefined ? {} : { nestedRole: dg.nestedRole }),
        };
        r.grants.push(grant);
        const set = sets.get(dg.scope.rid)!;
        for (const t of dg.canonical) set.add(t);
      }
    }
    for (const [rid, r] of reached) r.permissions = canonicalOrder(sets.get(rid)!);
    return { source, reached };
  }
}
