/**
 * SCIM Users and Groups -> one application of an `application` payload. The mapping is listed in
 * the README; the choices that are not obvious are commented where they are made.
 */
import {
  ApplicationPayloadBuilder,
  isRfc3339,
  orderGroups,
  withoutEdges,
  type ApplicationPayload,
  type ConnectorLogger,
  type LocalUser,
  type PermissionType,
} from '@oaakit/core';
import { referenceNames, resolveMembership } from './membership.js';
import type { ScimGroup, ScimUser } from './scim-resources.js';

/** Custom properties declared on local users (all `STRING`). */
export const USER_PROPERTIES = ['display_name', 'employee_number', 'department', 'manager'] as const;

export interface BuildOptions {
  applicationName: string;
  applicationType: string;
  entitlementPermissionTypes: PermissionType[];
  /** Users and groups keyed by SCIM id, in the order the service returned them. */
  users: ReadonlyMap<string, ScimUser>;
  groups: ReadonlyMap<string, ScimGroup>;
  logger: ConnectorLogger;
}

/** Distinct values compared without case; the first spelling wins (payload names compare without case). */
function distinct(lists: Iterable<string[]>): string[] {
  const seen = new Map<string, string>();
  for (const list of lists)
    for (const v of list) if (!seen.has(v.toLowerCase())) seen.set(v.toLowerCase(), v);
  return [...seen.values()];
}

function timestamp(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (isRfc3339(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Builds the payload. Throws the builder's `OaaError` on a name clash it cannot resolve. */
export function buildPayload(options: BuildOptions): ApplicationPayload {
  const { applicationName: application, users, groups, logger } = options;
  const b = new ApplicationPayloadBuilder();
  const app = b.addApplication({ name: application, application_type: options.applicationType });
  for (const name of USER_PROPERTIES) app.defineProperty('local_user', name, 'STRING');

  // Entitlements are permissions held by the user directly (SCIM gives them no role to sit in).
  const entitlements = distinct([...users.values()].map((u) => u.entitlements));
  for (const name of entitlements) {
    b.addPermission({
      name,
      permission_type: options.entitlementPermissionTypes,
      application_type: [options.applicationType],
    });
  }
  // SCIM roles carry no permissions; each becomes a local role of its own name.
  for (const name of distinct([...users.values()].map((u) => u.roles))) app.addLocalRole({ name });

  const membership = resolveMembership(users, groups);
  if (membership.unresolved.length > 0) {
    logger.warn(
      { count: membership.unresolved.length, sample: membership.unresolved.slice(0, 5) },
      'SCIM group members that name no user or group read from the service were left out',
    );
  }
  const groupRef = referenceNames(
    groups.values(),
    (g) => g.id,
    (g) => g.displayName,
  );
  const { order, droppedEdges } = orderGroups([...groups.keys()], membership.groupParents);
  if (droppedEdges.length > 0) {
    logger.warn(
      { edges: droppedEdges.slice(0, 5), count: droppedEdges.length },
      'SCIM groups nest in a cycle; the closing memberships were left out',
    );
  }
  const parents = withoutEdges(membership.groupParents, droppedEdges);
  for (const id of order) {
    const group = groups.get(id)!;
    const parentIds = [...(parents.get(id) ?? [])];
    app.addLocalGroup({
      name: group.displayName,
      unique_id: group.id,
      ...(parentIds.length > 0 && { groups: parentIds.map((p) => groupRef.get(p)!) }),
    });
  }

  const userRef = referenceNames(
    users.values(),
    (u) => u.id,
    (u) => u.userName,
  );
  for (const user of users.values()) {
    const groupIds = [...(membership.userGroups.get(user.id) ?? [])];
    app.addLocalUser(
      localUser(
        user,
        groupIds.map((g) => groupRef.get(g)!),
        users,
      ),
    );
    const identity = userRef.get(user.id)!;
    for (const role of user.roles)
      b.grantRole({ identity, identityType: 'local_user', application, role, applyToApplication: true });
    for (const permission of user.entitlements) {
      b.grantPermission({
        identity,
        identityType: 'local_user',
        application,
        permission,
        applyToApplication: true,
      });
    }
  }
  return b.build();
}

function localUser(user: ScimUser, groups: string[], users: ReadonlyMap<string, ScimUser>): LocalUser {
  const local: LocalUser = { name: user.userName, unique_id: user.id };
  if (user.emails.length > 0) local.identities = user.emails;
  if (groups.length > 0) local.groups = groups;
  if (user.active !== undefined) local.is_active = user.active;
  const created = timestamp(user.created);
  if (created !== undefined) local.created_at = created;
  const props: Record<string, string> = {};
  if (user.displayName !== undefined) props.display_name = user.displayName;
  if (user.employeeNumber !== undefined) props.employee_number = user.employeeNumber;
  if (user.department !== undefined) props.department = user.department;
  // The manager by userName when the manager was read too, else by SCIM id: a name is what a
  // reviewer recognises, and it is also how the manager's own local user is named.
  if (user.managerId !== undefined) props.manager = users.get(user.managerId)?.userName ?? user.managerId;
  if (Object.keys(props).length > 0) local.custom_properties = props;
  return local;
}
