/**
 * Tolerant readers of SCIM 2.0 User and Group resources (RFC 7643 sections 4.1, 4.2, 4.3). Every
 * attribute but `id` is optional here: servers omit what they do not support, spell attribute names
 * in any case (they are case-insensitive) and sometimes send `"true"` for a boolean.
 */
import { OaaError } from '@oaakit/core';
import type { ScimAppErrorCode } from './error-codes.js';

/** Schema URN of the enterprise User extension. */
export const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** The parts of a SCIM User the connector maps. */
export interface ScimUser {
  id: string;
  /** `userName`, or the id when the server leaves it out. */
  userName: string;
  displayName?: string;
  active?: boolean;
  /** `meta.created` as sent. */
  created?: string;
  /** Email values, the primary one first, without duplicates. */
  emails: string[];
  roles: string[];
  entitlements: string[];
  employeeNumber?: string;
  department?: string;
  /** `manager.value` of the enterprise extension: the SCIM id of another User. */
  managerId?: string;
  /** Ids of groups the user is a direct member of, from the read-only `groups` attribute. */
  groupIds: string[];
}

/** A member of a SCIM Group; `type` is absent when the server does not say. */
export interface ScimMember {
  value: string;
  type?: 'User' | 'Group';
}

/** The parts of a SCIM Group the connector maps. */
export interface ScimGroup {
  id: string;
  /** `displayName`, or the id when the server leaves it out. */
  displayName: string;
  members: ScimMember[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Attribute `name` of `obj`, compared without case as RFC 7643 section 2.1 requires. */
function attr(obj: Json, name: string): unknown {
  if (name in obj) return obj[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(obj)) if (key.toLowerCase() === lower) return obj[key];
  return undefined;
}

function str(obj: Json, name: string): string | undefined {
  const v = attr(obj, name);
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  return typeof v === 'number' ? String(v) : undefined;
}

function bool(obj: Json, name: string): boolean | undefined {
  const v = attr(obj, name);
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'True') return true;
  if (v === 'false' || v === 'False') return false;
  return undefined;
}

/**
 * Values of a multi-valued attribute (`emails`, `roles`, ...), the `primary` one first, without
 * duplicates (compared without case). Plain strings are accepted as values too.
 */
function values(obj: Json, name: string): string[] {
  const list = attr(obj, name);
  if (!Array.isArray(list)) return [];
  const primary: string[] = [];
  const rest: string[] = [];
  for (const item of list) {
    const value =
      typeof item === 'string'
        ? item
        : isObject(item)
          ? (str(item, 'value') ?? str(item, 'display'))
          : undefined;
    if (value === undefined) continue;
    (isObject(item) && bool(item, 'primary') === true ? primary : rest).push(value);
  }
  const seen = new Set<string>();
  return [...primary, ...rest].filter((v) => !seen.has(v.toLowerCase()) && seen.add(v.toLowerCase()));
}

function idOf(raw: unknown, kind: string): string {
  const id = isObject(raw) ? str(raw, 'id') : undefined;
  if (id === undefined) {
    throw new OaaError<ScimAppErrorCode>(`the SCIM service returned a ${kind} without an "id"`, {
      code: 'SCIM_BAD_RESPONSE',
      details: { kind },
      hints: ['every SCIM resource must carry an id (RFC 7643 section 3.1)'],
    });
  }
  return id;
}

/** Reads a User resource; throws `SCIM_BAD_RESPONSE` when it has no id. */
export function readUser(raw: unknown): ScimUser {
  const id = idOf(raw, 'User');
  const obj = raw as Json;
  const user: ScimUser = {
    id,
    userName: str(obj, 'userName') ?? id,
    emails: values(obj, 'emails'),
    roles: values(obj, 'roles'),
    entitlements: values(obj, 'entitlements'),
    groupIds: directGroups(obj),
  };
  const displayName = str(obj, 'displayName');
  if (displayName !== undefined) user.displayName = displayName;
  const active = bool(obj, 'active');
  if (active !== undefined) user.active = active;
  const meta = attr(obj, 'meta');
  const created = isObject(meta) ? str(meta, 'created') : undefined;
  if (created !== undefined) user.created = created;
  const enterprise = attr(obj, ENTERPRISE_USER);
  if (isObject(enterprise)) {
    const employeeNumber = str(enterprise, 'employeeNumber');
    if (employeeNumber !== undefined) user.employeeNumber = employeeNumber;
    const department = str(enterprise, 'department');
    if (department !== undefined) user.department = department;
    const manager = attr(enterprise, 'manager');
    // Some servers send the manager's id as a plain string.
    const managerId = isObject(manager)
      ? str(manager, 'value')
      : typeof manager === 'string' && manager !== ''
        ? manager
        : undefined;
    if (managerId !== undefined) user.managerId = managerId;
  }
  return user;
}

/** Group ids from the User's read-only `groups` attribute; indirect memberships are left out. */
function directGroups(obj: Json): string[] {
  const list = attr(obj, 'groups');
  if (!Array.isArray(list)) return [];
  const ids: string[] = [];
  for (const g of list) {
    if (!isObject(g)) continue;
    const value = str(g, 'value');
    if (value !== undefined && str(g, 'type')?.toLowerCase() !== 'indirect') ids.push(value);
  }
  return ids;
}

function refType(ref: string | undefined): string | undefined {
  const match = ref === undefined ? null : /\/(users|groups)\/[^/]+\/?$/i.exec(ref);
  return match ? match[1]!.toLowerCase().slice(0, -1) : undefined;
}

/** Reads a Group resource; throws `SCIM_BAD_RESPONSE` when it has no id. */
export function readGroup(raw: unknown): ScimGroup {
  const id = idOf(raw, 'Group');
  const obj = raw as Json;
  const members: ScimMember[] = [];
  const list = attr(obj, 'members');
  if (Array.isArray(list)) {
    for (const m of list) {
      if (!isObject(m)) continue;
      const value = str(m, 'value');
      if (value === undefined) continue;
      // Without a `type`, the `$ref` URI (`.../Users/<id>` or `.../Groups/<id>`) still tells.
      const type = str(m, 'type')?.toLowerCase() ?? refType(str(m, '$ref'));
      members.push(
        type === 'user' ? { value, type: 'User' } : type === 'group' ? { value, type: 'Group' } : { value },
      );
    }
  }
  return { id, displayName: str(obj, 'displayName') ?? id, members };
}
