/** What the application ingest remembers about one application while its payload is written. */
import type { LocalIndex } from './local-index.js';

/** One permission of the payload as it applies to one application. */
export interface PermissionNodes {
  applyToSubResources: boolean;
  /** Node row ids, with the folded resource type each was created for (undefined: any type). */
  nodes: { rid: number; resourceType: string | undefined }[];
}

/** A resource node and its sub-resources, for grants and inheritance. */
export interface ResourceEntry {
  rid: number;
  /** Folded resource type. */
  type: string;
  subs: ResourceEntry[];
}

/** A local role: its node and every permission it grants, its nested roles' included. */
export interface RoleEntry {
  rid: number;
  name: string;
  permissions: PermissionNodes[];
}

/**
 * Lookups of one application. Local identities are found by key and other names (`LocalIndex`),
 * permissions and resources by case-folded name.
 */
export interface AppScope {
  rid: number;
  name: string;
  type: string;
  users: LocalIndex<number>;
  groups: LocalIndex<number>;
  roles: LocalIndex<RoleEntry>;
  creds: LocalIndex<number>;
  permissions: Map<string, PermissionNodes>;
  /** By every dot-path a reference may use (each level by id or name). */
  resources: Map<string, ResourceEntry>;
  /** Types of the resources and sub-resources, as written (for the provider's lists). */
  resourceTypes: Set<string>;
  /** Node types the resources' connections named so far (each unknown one is warned of once). */
  connectionTypes: Set<string>;
}

/** Permission node row ids that apply on a target of `resourceType` (undefined: the application). */
export function permissionNodesFor(perm: PermissionNodes, resourceType: string | undefined): number[] {
  if (resourceType === undefined) return perm.nodes.map((n) => n.rid);
  const typed = perm.nodes.filter((n) => n.resourceType === resourceType);
  if (typed.length > 0) return typed.map((n) => n.rid);
  return perm.nodes.filter((n) => n.resourceType === undefined).map((n) => n.rid);
}

/** Every sub-resource below `entry`, depth first. */
export function descendantsOf(entry: ResourceEntry): ResourceEntry[] {
  const out: ResourceEntry[] = [];
  const stack = [...entry.subs];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(...next.subs);
  }
  return out;
}
