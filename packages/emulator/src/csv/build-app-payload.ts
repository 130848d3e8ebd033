/**
 * CSV rows into an `application` payload: one row per local user (rows naming the same user merge
 * their lists), with groups, roles and permissions created from the names in the cells.
 */
import type { ApplicationPayload, LocalUser, PermissionType } from '@oaakit/core';
import type { CellReader, Row } from './cells.js';
import type { CsvConfig } from './csv-config.js';
import { FoldedNames } from './folded-names.js';

/** A payload and the CSV line each local user (and its grants) came from. */
export interface BuiltPayload {
  payload: Record<string, unknown>;
  /** Maps a payload path prefix to the CSV line it was built from. */
  lineOf: (field: string) => number | undefined;
}

interface UserDraft {
  user: LocalUser;
  identities: FoldedNames;
  groups: FoldedNames;
  roles: FoldedNames;
  permissions: FoldedNames;
  line: number;
}

const fold = (s: string): string => s.toLowerCase();

function newDraft(name: string, line: number): UserDraft {
  const sets = () => new FoldedNames();
  return {
    // The lists are filled in at the end; created here, they keep their place among the user's keys.
    user: { name, identities: [], groups: [] },
    identities: sets(),
    groups: sets(),
    roles: sets(),
    permissions: sets(),
    line,
  };
}

/** Builds the payload from the mapped rows, read as they come. */
export async function buildApplicationPayload(
  rows: AsyncIterable<Row>,
  cells: CellReader,
  config: CsvConfig,
  providerName: string,
): Promise<BuiltPayload> {
  const appName = config.application.name ?? providerName;
  const appType = config.application.application_type ?? providerName;
  const users = new Map<string, UserDraft>();
  const groups = new FoldedNames();
  const roles = new FoldedNames();
  const permissions = new FoldedNames();

  for await (const row of rows) {
    const name = cells.required(row, 'name');
    if (name === undefined) continue;
    const uniqueId = cells.text(row, 'unique_id');
    const key = fold(uniqueId ?? name);
    let draft = users.get(key);
    if (!draft) {
      draft = newDraft(name, row.line);
      if (uniqueId !== undefined) draft.user.unique_id = uniqueId;
      users.set(key, draft);
    }
    const u = draft.user;
    const active = cells.bool(row, 'is_active');
    if (active !== undefined) u.is_active ??= active;
    for (const f of ['created_at', 'last_login_at', 'password_last_changed_at', 'deactivated_at'] as const) {
      const t = cells.time(row, f);
      if (t !== undefined) u[f] ??= t;
    }
    const props = cells.properties(row);
    if (props) u.custom_properties = { ...(props as LocalUser['custom_properties']), ...u.custom_properties };
    draft.identities.add(cells.list(row, 'identities'));
    const rowGroups = cells.list(row, 'groups');
    draft.groups.add(rowGroups);
    groups.add(rowGroups);
    const rowRoles = cells.list(row, 'roles');
    draft.roles.add(rowRoles);
    roles.add(rowRoles);
    const rowPerms = cells.list(row, 'permissions');
    draft.permissions.add(rowPerms);
    permissions.add(rowPerms);
  }

  const rolePermissions = roles
    .list()
    .map((r) => ({ name: r, permissions: config.roles.get(fold(r)) ?? [] }));
  for (const r of rolePermissions) permissions.add(r.permissions);
  const drafts = [...users.values()];
  for (const d of drafts) {
    d.user.identities = d.identities.list();
    d.user.groups = d.groups.list();
  }
  const granted = drafts.filter((d) => d.roles.size > 0 || d.permissions.size > 0);

  const payload: ApplicationPayload = {
    custom_property_definition: {
      applications: [{ application_type: appType, local_user_properties: cells.propertyDefinitions() }],
    },
    applications: [
      {
        name: appName,
        application_type: appType,
        ...(config.application.description === undefined
          ? {}
          : { description: config.application.description }),
        local_users: drafts.map((d) => d.user),
        local_groups: groups.list().map((g) => ({ name: g })),
        local_roles: rolePermissions,
        resources: [],
      },
    ],
    permissions: permissions.list().map((p) => ({
      name: p,
      permission_type: (config.permissions.get(fold(p)) ?? ['Uncategorized']) as PermissionType[],
    })),
    identity_to_permissions: granted.map((d) => ({
      identity: d.user.unique_id ?? d.user.name,
      identity_type: 'local_user' as const,
      application_permissions: d.permissions.list().map((p) => ({
        application: appName,
        permission: p,
        apply_to_application: true,
      })),
      role_assignments: d.roles
        .list()
        .map((r) => ({ application: appName, role: r, apply_to_application: true })),
    })),
  };

  const userLines = drafts.map((d) => d.line);
  const grantLines = granted.map((d) => d.line);
  return {
    payload,
    lineOf: (field) => {
      const user = /^applications\[0\]\.local_users\[(\d+)\]/.exec(field);
      if (user) return userLines[Number(user[1])];
      const grant = /^identity_to_permissions\[(\d+)\]/.exec(field);
      return grant ? grantLines[Number(grant[1])] : undefined;
    },
  };
}
