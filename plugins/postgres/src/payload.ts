/**
 * Catalog rows -> one application of an `application` payload. The mapping and the reason for each
 * choice are in the README; the non-obvious ones are commented where they are made.
 */
import {
  ApplicationPayloadBuilder,
  type ApplicationBuilder,
  type ApplicationPayload,
  type LocalUser,
  type ResourceBuilder,
} from '@oaakit/core';
import type {
  AclEntry,
  DatabaseRow,
  DefaultAclRow,
  FunctionRow,
  MembershipRow,
  RelationRow,
  RoleRow,
  SchemaRow,
} from './catalog.js';
import {
  OWNER_PRIVILEGES,
  OWNER_ROLE,
  PREDEFINED_GRANTS,
  PRIVILEGE_TYPES,
  RELATION_TYPES,
  privilegeRole,
} from './privileges.js';

/** The group every user is in: grants to PUBLIC go to it. */
export const PUBLIC_GROUP = 'PUBLIC';
/** The grantee oid of PUBLIC in ACLs. */
const PUBLIC_OID = '0';
/** Grants to it apply to the owner of the database they are in. */
const DATABASE_OWNER = 'pg_database_owner';

/** Custom properties of local users (PostgreSQL role attributes). */
export const USER_PROPERTIES = {
  superuser: 'BOOLEAN',
  createdb: 'BOOLEAN',
  createrole: 'BOOLEAN',
  replication: 'BOOLEAN',
  bypassrls: 'BOOLEAN',
  inherit: 'BOOLEAN',
  connection_limit: 'NUMBER',
  valid_until: 'TIMESTAMP',
  comment: 'STRING',
  /** Groups the role is a member of without inheriting: their privileges need SET ROLE. */
  noinherit_groups: 'STRING_LIST',
  /** Groups whose membership the role may grant (admin option). */
  admin_of_groups: 'STRING_LIST',
} as const;

/** A resource id: oid, then the qualified name. Dots separate sub-resources in references, so they are escaped. */
function resourceId(oid: string, ...names: string[]): string {
  return `${oid}:${names.map((n) => n.replace(/%/g, '%25').replace(/\./g, '%2E').replace(/\//g, '%2F')).join('/')}`;
}

type Identity = { identity: string; identityType: 'local_user' | 'local_group' };

export class PayloadAssembler {
  private readonly b = new ApplicationPayloadBuilder();
  private readonly app: ApplicationBuilder;
  private readonly roles = new Map<string, RoleRow>();
  /** Who a grant to each role oid goes to (roles that are neither user nor group are left out). */
  private readonly identities = new Map<string, Identity>();
  private readonly groupOids = new Set<string>();
  private readonly predefined = new Map<string, string[]>();
  private database: { row: DatabaseRow; resource: ResourceBuilder } | undefined;
  private readonly schemas = new Map<string, ResourceBuilder>();
  private readonly schemaOids = new Map<string, string>();
  private readonly pending = new Map<
    string,
    { to: Identity; role: string; grantable: boolean; resources: string[] }
  >();
  /** Grants read; counts for the log. */
  grants = 0;
  /** Privileges read that have no role (and were left out). */
  readonly unknownPrivileges = new Set<string>();

  constructor(
    private readonly application: string,
    roles: RoleRow[],
    memberships: MembershipRow[],
  ) {
    const app = (this.app = this.b.addApplication({ name: application, application_type: 'PostgreSQL' }));
    for (const [name, type] of Object.entries(USER_PROPERTIES)) app.defineProperty('local_user', name, type);
    app.defineProperty('local_group', 'comment', 'STRING');
    app.defineProperty('role_assignment', 'grant_option', 'BOOLEAN');
    for (const type of ['database', 'schema'])
      app.defineResourceProperty(type, 'default_privileges', 'STRING_LIST');
    for (const type of [
      'table',
      'view',
      'materialized_view',
      'foreign_table',
      'sequence',
      'function',
      'procedure',
    ])
      app.defineResourceProperty(type, 'owner', 'STRING');
    app.defineResourceProperty('table', 'rls_enabled', 'BOOLEAN');
    app.defineResourceProperty('table', 'rls_forced', 'BOOLEAN');
    app.defineResourceProperty('table', 'rls_policies', 'STRING_LIST');
    app.defineResourceProperty('database', 'owner', 'STRING');
    app.defineResourceProperty('schema', 'owner', 'STRING');

    for (const [role, types] of Object.entries(PRIVILEGE_TYPES)) {
      this.b.addPermission({ name: role, permission_type: types, application_type: ['PostgreSQL'] });
      if (!['ALTER', 'DROP', 'GRANT'].includes(role)) app.addLocalRole({ name: role, permissions: [role] });
    }
    app.addLocalRole({ name: OWNER_ROLE, permissions: OWNER_PRIVILEGES });

    for (const r of roles) this.roles.set(r.oid, r);
    const members = new Map<string, MembershipRow[]>();
    const memberOf = new Map<string, MembershipRow[]>();
    for (const m of memberships) {
      if (!members.has(m.roleid)) members.set(m.roleid, []);
      members.get(m.roleid)!.push(m);
      if (!memberOf.has(m.member)) memberOf.set(m.member, []);
      memberOf.get(m.member)!.push(m);
    }
    // A role that cannot log in is reached only through membership: a group. Predefined roles
    // (pg_*) are groups only when someone is their member, so unused ones do not crowd the graph.
    for (const r of roles) {
      const predefined = r.rolname.startsWith('pg_');
      if (r.rolcanlogin ? members.has(r.oid) : !predefined || members.has(r.oid)) this.groupOids.add(r.oid);
    }
    app.addLocalGroup({ name: PUBLIC_GROUP, unique_id: 'public' });
    // Parents first: the builder wants a group's parents to exist.
    const added = new Set<string>();
    const addGroup = (oid: string, trail: Set<string>): void => {
      if (added.has(oid) || trail.has(oid)) return;
      trail.add(oid);
      const parents = this.inheritedGroups(memberOf.get(oid) ?? []);
      for (const p of parents) addGroup(p, trail);
      const r = this.roles.get(oid)!;
      added.add(oid);
      app.addLocalGroup({
        name: r.rolname,
        unique_id: `group:${oid}`,
        ...(parents.length > 0 && { groups: parents.map((p) => this.roles.get(p)!.rolname) }),
        ...(r.comment !== null && { custom_properties: { comment: r.comment } }),
      });
    };
    for (const oid of this.groupOids) addGroup(oid, new Set());
    for (const oid of this.groupOids)
      this.identities.set(oid, { identity: this.roles.get(oid)!.rolname, identityType: 'local_group' });

    for (const r of roles) {
      if (!r.rolcanlogin) continue;
      const rows = memberOf.get(r.oid) ?? [];
      const groups = [PUBLIC_GROUP, ...this.inheritedGroups(rows).map((g) => this.roles.get(g)!.rolname)];
      // A LOGIN role with members is a group too; the user is in it, so grants to the role (made to
      // the group) reach the user and the members alike.
      if (this.groupOids.has(r.oid)) groups.push(r.rolname);
      const noinherit = rows.filter((m) => !m.inherit_option && this.groupOids.has(m.roleid));
      const admin = rows.filter((m) => m.admin_option && this.groupOids.has(m.roleid));
      const user: LocalUser = {
        name: r.rolname,
        unique_id: `user:${r.oid}`,
        groups,
        is_active: r.valid_now,
        custom_properties: {
          superuser: r.rolsuper,
          createdb: r.rolcreatedb,
          createrole: r.rolcreaterole,
          replication: r.rolreplication,
          bypassrls: r.rolbypassrls,
          inherit: r.rolinherit,
          connection_limit: r.rolconnlimit,
          ...(r.valid_until !== null && { valid_until: r.valid_until }),
          ...(r.comment !== null && { comment: r.comment }),
          ...(noinherit.length > 0 && {
            noinherit_groups: noinherit.map((m) => this.roles.get(m.roleid)!.rolname),
          }),
          ...(admin.length > 0 && { admin_of_groups: admin.map((m) => this.roles.get(m.roleid)!.rolname) }),
        },
      };
      app.addLocalUser(user);
      if (!this.groupOids.has(r.oid))
        this.identities.set(r.oid, { identity: r.rolname, identityType: 'local_user' });
    }
    for (const [name, privileges] of Object.entries(PREDEFINED_GRANTS)) {
      const r = roles.find((x) => x.rolname === name);
      if (r !== undefined && this.groupOids.has(r.oid)) this.predefined.set(r.oid, privileges);
    }
  }

  /**
   * The groups a role's memberships pass privileges from. A membership without INHERIT is left out
   * of the graph's edges (and listed in `noinherit_groups`): its privileges need SET ROLE first.
   */
  private inheritedGroups(rows: MembershipRow[]): string[] {
    return rows.filter((m) => m.inherit_option && this.groupOids.has(m.roleid)).map((m) => m.roleid);
  }

  private roleName(oid: string): string {
    return oid === PUBLIC_OID ? PUBLIC_GROUP : (this.roles.get(oid)?.rolname ?? `oid ${oid}`);
  }

  /** Who receives a grant made to `oid`; `pg_database_owner` stands for the database's owner. */
  private grantee(oid: string): Identity | undefined {
    if (oid === PUBLIC_OID) return { identity: PUBLIC_GROUP, identityType: 'local_group' };
    if (this.roles.get(oid)?.rolname === DATABASE_OWNER && this.database !== undefined)
      return this.identities.get(this.database.row.owner);
    return this.identities.get(oid);
  }

  private grant(to: Identity | undefined, role: string, resource: ResourceBuilder, grantable = false): void {
    if (to === undefined) return;
    // A privilege of a later PostgreSQL than this connector knows is left out, and reported once.
    if (role !== OWNER_ROLE && PRIVILEGE_TYPES[role] === undefined) {
      this.unknownPrivileges.add(role);
      return;
    }
    this.grants++;
    // One role assignment per identity, role and grant option, listing every resource it applies
    // to: half a million grants become a few thousand assignments, not half a million objects.
    const key = `${to.identityType}\u0000${to.identity}\u0000${role}\u0000${grantable}`;
    let pending = this.pending.get(key);
    if (pending === undefined) this.pending.set(key, (pending = { to, role, grantable, resources: [] }));
    // A resource's grants are read together, so a repeat (one privilege from two grantors, or
    // pg_database_owner's next to the owner's own) is the last one listed.
    const path = resource.path;
    if (pending.resources.at(-1) !== path) pending.resources.push(path);
  }

  private grantAcl(acl: AclEntry[], owner: string, resource: ResourceBuilder, relkind?: string): void {
    this.grant(this.grantee(owner), OWNER_ROLE, resource);
    for (const [grantee, privilege, grantable] of acl)
      this.grant(this.grantee(grantee), privilegeRole(privilege, relkind), resource, grantable);
  }

  startDatabase(row: DatabaseRow, schemas: SchemaRow[], defaults: DefaultAclRow[]): void {
    const resource = this.app.addResource({
      name: row.datname,
      id: resourceId(row.oid, row.datname),
      resource_type: 'database',
      ...(row.comment !== null && { description: row.comment.slice(0, 255) }),
    });
    this.database = { row, resource };
    resource.resource.custom_properties = { owner: this.roleName(row.owner) };
    this.grantAcl(row.acl, row.owner, resource);
    this.schemas.clear();
    this.schemaOids.clear();
    const globalDefaults = defaults.filter((d) => d.schema === null).map((d) => this.describeDefault(d));
    if (globalDefaults.length > 0) resource.resource.custom_properties.default_privileges = globalDefaults;
    for (const s of schemas) {
      const schema = resource.addSubResource({
        name: s.nspname,
        id: resourceId(s.oid, row.datname, s.nspname),
        resource_type: 'schema',
      });
      const own = defaults.filter((d) => d.schema === s.oid).map((d) => this.describeDefault(d));
      schema.resource.custom_properties = {
        owner: this.roleName(s.owner),
        ...(own.length > 0 && { default_privileges: own }),
      };
      this.schemas.set(s.nspname, schema);
      this.schemaOids.set(s.oid, s.nspname);
      this.grantAcl(s.acl, s.owner, schema);
      for (const predefinedRole of this.predefined.keys())
        this.grant(this.identities.get(predefinedRole), 'USAGE', schema);
    }
  }

  /**
   * A default privilege as text: whose new objects, of which kind, get what. A global entry
   * replaces the built-in default of its kind; a per-schema entry adds to the global one.
   */
  private describeDefault(d: DefaultAclRow): string {
    const kinds: Record<string, string> = {
      r: 'tables',
      S: 'sequences',
      f: 'functions',
      T: 'types',
      n: 'schemas',
    };
    const byGrantee = new Map<string, string[]>();
    for (const [grantee, privilege, grantable] of d.acl) {
      const name = this.roleName(grantee);
      if (!byGrantee.has(name)) byGrantee.set(name, []);
      byGrantee.get(name)!.push(grantable ? `${privilege} WITH GRANT OPTION` : privilege);
    }
    const grants = [...byGrantee].map(([name, privs]) => `${privs.join(', ')} to ${name}`).join('; ');
    const scope = d.schema === null ? 'replaces the built-in default' : 'adds to the global default';
    return `new ${kinds[d.objtype] ?? d.objtype} of ${this.roleName(d.role)}: ${grants || 'nothing'} (${scope})`;
  }

  addRelation(row: RelationRow): void {
    const schema = this.schemas.get(row.schema);
    if (schema === undefined) return;
    const type = RELATION_TYPES[row.relkind] ?? 'table';
    const resource = schema.addSubResource({
      name: row.relname,
      id: resourceId(row.oid, this.database!.row.datname, row.schema, row.relname),
      resource_type: type,
    });
    const props: Record<string, string | boolean | string[]> = { owner: this.roleName(row.owner) };
    if (type === 'table') {
      props.rls_enabled = row.rls_enabled;
      props.rls_forced = row.rls_forced;
      if (row.policies !== null && row.policies.length > 0) {
        props.rls_policies = row.policies.map(
          (p) =>
            `${p.name}: ${p.permissive ? 'permissive' : 'restrictive'} ${p.command} to ${p.roles.join(', ')}` +
            (p.using === null ? '' : ` using (${p.using})`) +
            (p.check === null ? '' : ` with check (${p.check})`),
        );
      }
    }
    resource.resource.custom_properties = props;
    this.grantAcl(row.acl, row.owner, resource, row.relkind);
    for (const [oid, privileges] of this.predefined)
      for (const privilege of privileges) this.grant(this.identities.get(oid), privilege, resource);
    // A column is a resource only when it has grants of its own (a NULL column ACL means none).
    for (const column of row.columns ?? []) {
      const sub = resource.addSubResource({
        name: column.name,
        id: resourceId(
          `${row.oid}-${column.attnum}`,
          this.database!.row.datname,
          row.schema,
          row.relname,
          column.name,
        ),
        resource_type: 'column',
      });
      for (const [grantee, privilege, grantable] of column.acl)
        this.grant(this.grantee(grantee), privilege, sub, grantable);
    }
  }

  addFunction(row: FunctionRow): void {
    const schema = this.schemas.get(row.schema);
    if (schema === undefined) return;
    const resource = schema.addSubResource({
      name: row.signature,
      id: resourceId(row.oid, this.database!.row.datname, row.schema, row.signature),
      resource_type: row.prokind === 'p' ? 'procedure' : 'function',
    });
    resource.resource.custom_properties = { owner: this.roleName(row.owner) };
    this.grantAcl(row.acl, row.owner, resource);
  }

  build(): ApplicationPayload {
    for (const { to, role, grantable, resources } of this.pending.values()) {
      this.b.grantRole({
        ...to,
        application: this.application,
        role,
        resources,
        ...(grantable && { customProperties: { grant_option: true } }),
      });
    }
    this.pending.clear();
    return this.b.build();
  }
}
