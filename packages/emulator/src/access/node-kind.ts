/**
 * What a graph node is, read from its type (`OAA.<application_type>.User`, `OAA.<idp_type>.IdPUser`,
 * `OAA.<application_type>.<resource_type>.Resource`, ...: the names the ingest gives them).
 */

/** The kinds of node effective access distinguishes. */
export type NodeKind =
  | 'application'
  | 'resource'
  | 'user'
  | 'group'
  | 'role'
  | 'permission'
  | 'access_cred'
  | 'idp_user'
  | 'idp_group'
  | 'hris_employee'
  | 'other';

const SUFFIXES: readonly [string, NodeKind][] = [
  ['.Application', 'application'],
  ['.SubResource', 'resource'],
  ['.Resource', 'resource'],
  ['.IdPUser', 'idp_user'],
  ['.IdPGroup', 'idp_group'],
  ['.HRISEmployee', 'hris_employee'],
  ['.AccessCred', 'access_cred'],
  ['.Permission', 'permission'],
  ['.User', 'user'],
  ['.Group', 'group'],
  ['.Role', 'role'],
];

/** The kind of a node of type `type`. */
export function kindOf(type: string): NodeKind {
  if (!type.startsWith('OAA.')) return 'other';
  for (const [suffix, kind] of SUFFIXES) if (type.endsWith(suffix)) return kind;
  return 'other';
}

/** Kinds that hold grants or pass them on: the sources of effective access. */
export function isIdentityKind(kind: NodeKind): boolean {
  return (
    kind === 'user' ||
    kind === 'group' ||
    kind === 'access_cred' ||
    kind === 'idp_user' ||
    kind === 'idp_group' ||
    kind === 'hris_employee'
  );
}
