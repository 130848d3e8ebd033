/**
 * The grants a principal holds directly: permissions (`HAS_PERMISSION`) and roles (`HAS_ROLE`, whose
 * permissions include those of the roles nested in them), each on the application or resource it
 * applies on. An identity-provider user or group also holds the grants made to it by name in
 * `identity_to_permissions` (`identity_type` `idp`). The ingest already wrote the grants that
 * `apply_to_sub_resources` passes down to sub-resources as their own (inherited) edges, and a
 * permission with `resource_types` as one node per type, which applies only on resources of its type.
 */
import { PERMISSION_TYPES, type PermissionType } from '@oaakit/core';
import type { AccessNode, EdgeRow, GraphReads } from './graph-reads.js';

/** One permission a principal holds on one node. */
export interface DirectGrant {
  scope: AccessNode;
  permission: AccessNode;
  canonical: PermissionType[];
  /** The name of the role held, when the permission comes through one. */
  role?: string;
  /** The role nested (at any depth) in `role` that holds the permission. */
  nestedRole?: string;
  /** Passed down from a parent resource by `apply_to_sub_resources`. */
  inherited: boolean;
}

/** A role held on a node. */
export interface RoleHeld {
  role: AccessNode;
  scope: AccessNode;
}

const CANONICAL = new Set<string>(PERMISSION_TYPES);

/** The canonical types of a permission node. */
export function canonicalOf(permission: AccessNode): PermissionType[] {
  const v = permission.properties.permission_type;
  const list = Array.isArray(v) ? v : [];
  return list.filter((t): t is PermissionType => typeof t === 'string' && CANONICAL.has(t));
}

/** Whether a permission node applies on `scope` (a typed permission only on resources of its type). */
export function appliesOn(permission: AccessNode, scope: AccessNode): boolean {
  const rt = permission.properties.resource_type;
  if (typeof rt !== 'string' || scope.kind !== 'resource') return true;
  const st = scope.properties.resource_type;
  return typeof st === 'string' && st.toLowerCase() === rt.toLowerCase();
}

/** Grant lookups with caches shared by every source of one request. */
export class GrantReads {
  private readonly roles = new Map<number, { permission: AccessNode; nestedRole?: string }[]>();
  private readonly direct = new Map<number, { grants: DirectGrant[]; roles: RoleHeld[] }>();

  constructor(readonly g: GraphReads) {}

  /** The permissions a role grants, its nested roles' included. */
  rolePermissions(role: AccessNode): { permission: AccessNode; nestedRole?: string }[] {
    let perms = this.roles.get(role.rid);
    if (perms === undefined) {
      perms = [];
      for (const e of this.g.out(role.rid, 'ROLE_HAS_PERMISSION')) {
        const p = e.dst === null ? undefined : this.g.node(e.dst);
        if (!p) continue;
        const via = e.props?.via_role;
        perms.push(typeof via === 'string' ? { permission: p, nestedRole: via } : { permission: p });
      }
      this.roles.set(role.rid, perms);
    }
    return perms;
  }

  /** The grant edges of `principal`: its own, and for an identity-provider node those naming it. */
  private edgesOf(principal: AccessNode): EdgeRow[] {
    const edges = [...this.g.out(principal.rid, 'HAS_PERMISSION'), ...this.g.out(principal.rid, 'HAS_ROLE')];
    if (principal.kind === 'idp_user' || principal.kind === 'idp_group') {
      for (const key of this.g.identityKeys(principal.rid))
        for (const e of this.g.byRef(key))
          if (e.src === null && (e.kind === 'HAS_PERMISSION' || e.kind === 'HAS_ROLE')) edges.push(e);
    }
    return edges;
  }

  /** Expands one grant edge into the permissions it gives on its scope. */
  expand(e: EdgeRow): { grants: DirectGrant[]; role?: RoleHeld } {
    const scope = e.scope === null ? undefined : this.g.node(e.scope);
    const target = e.dst === null ? undefined : this.g.node(e.dst);
    if (!scope || !target) return { grants: [] };
    if (e.kind === 'HAS_PERMISSION') {
      const grant: DirectGrant = {
        scope,
        permission: target,
        canonical: canonicalOf(target),
        inherited: e.props?.inherited === true,
      };
      // An inherited grant of a role held on a parent resource names that role.
      const viaRole = e.props?.via_role;
      if (typeof viaRole === 'string') grant.role = viaRole;
      return { grants: [grant] };
    }
    const grants: DirectGrant[] = [];
    for (const rp of this.rolePermissions(target)) {
      if (!appliesOn(rp.permission, scope)) continue;
      grants.push({
        scope,
        permission: rp.permission,
        canonical: canonicalOf(rp.permission),
        role: target.name ?? target.id,
        inherited: false,
        ...(rp.nestedRole === undefined ? {} : { nestedRole: rp.nestedRole }),
      });
    }
    return { grants, role: { role: target, scope } };
  }

  /** What `principal` holds directly. */
  of(principal: AccessNode): { grants: DirectGrant[]; roles: RoleHeld[] } {
    let held = this.direct.get(principal.rid);
    if (held === undefined) {
      held = { grants: [], roles: [] };
      for (const e of this.edgesOf(principal)) {
        const x = this.expand(e);
        held.grants.push(...x.grants);
        if (x.role) held.roles.push(x.role);
      }
      this.direct.set(principal.rid, held);
    }
    return held;
  }
}
