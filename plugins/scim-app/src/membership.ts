/**
 * Who is in which group. Membership comes from two places in SCIM: a Group's `members` (users and
 * nested groups) and a User's read-only `groups`; servers fill one, the other or both, so the
 * connector takes the union.
 */
import type { ScimGroup, ScimUser } from './scim-resources.js';

export interface Membership {
  /** User id to the ids of the groups it is a direct member of. */
  userGroups: Map<string, Set<string>>;
  /** Group id to the ids of its parent groups (the groups it is a member of). */
  groupParents: Map<string, Set<string>>;
  /** Member or group references that name no User or Group read from the service. */
  unresolved: { group: string; member: string }[];
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/** Resolves the membership of `users` and `groups` (both keyed by SCIM id). */
export function resolveMembership(
  users: ReadonlyMap<string, ScimUser>,
  groups: ReadonlyMap<string, ScimGroup>,
): Membership {
  const result: Membership = { userGroups: new Map(), groupParents: new Map(), unresolved: [] };
  for (const group of groups.values()) {
    for (const member of group.members) {
      // A member without a type is looked up among the users first: user ids are far more common.
      const type =
        member.type ?? (users.has(member.value) ? 'User' : groups.has(member.value) ? 'Group' : undefined);
      if (type === 'User' && users.has(member.value)) add(result.userGroups, member.value, group.id);
      else if (type === 'Group' && groups.has(member.value) && member.value !== group.id)
        add(result.groupParents, member.value, group.id);
      else if (member.value !== group.id) result.unresolved.push({ group: group.id, member: member.value });
    }
  }
  for (const user of users.values()) {
    for (const groupId of user.groupIds) {
      if (groups.has(groupId)) add(result.userGroups, user.id, groupId);
      else result.unresolved.push({ group: groupId, member: user.id });
    }
  }
  return result;
}

/**
 * How payload entries refer to each entity: by its name, unless another entity of the same kind
 * has the same name without regard to case (SCIM does not make group names unique); those are
 * referred to by their SCIM id, which is also their `unique_id`.
 */
export function referenceNames<T>(
  items: Iterable<T>,
  id: (t: T) => string,
  name: (t: T) => string,
): Map<string, string> {
  const counts = new Map<string, number>();
  const list = [...items];
  for (const item of list) {
    const key = name(item).toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const ids = new Set(list.map((item) => id(item).toLowerCase()));
  const refs = new Map<string, string>();
  for (const item of list) {
    const n = name(item);
    // A name that equals another entity's id would be ambiguous too.
    const unique =
      counts.get(n.toLowerCase()) === 1 &&
      (!ids.has(n.toLowerCase()) || n.toLowerCase() === id(item).toLowerCase());
    refs.set(id(item), unique ? n : id(item));
  }
  return refs;
}
