/** Builder of `application` payloads: typed, case-insensitive, with references checked as they are made. */
import { NameTable } from '../internal/name-table.js';
import {
  IDENTITY_TYPES,
  type Application,
  type ApplicationPayload,
  type ApplicationPermission,
  type IdentityToPermissions,
  type IdentityType,
  type Permission,
  type PermissionType,
  type RoleAssignment,
} from '../schemas/application.js';
import { ApplicationBuilder } from './application.js';
import { EntityStream } from './entity-stream.js';
import { Registry } from './registry.js';

/** What every grant names: who gets it, in which application, on what. */
export interface GrantBase {
  /**
   * The grantee: a local user's, group's or access credential's key (`id`, else `unique_id`, else
   * `name`) or name, or an identity-provider login email or group name.
   */
  identity: string;
  identityType: IdentityType;
  application: string;
  /** Resource references (sub-resources as `parent.child`); empty with `applyToApplication`. */
  resources?: string[];
  applyToApplication?: boolean;
}

/** A role assignment: `GrantBase` plus the role and the assignment's own custom properties. */
export interface RoleGrant extends GrantBase {
  /** The local role's key (`id`, else `unique_id`, else `name`) or name. */
  role: string;
  /** Values of the application type's `role_assignment_properties`. */
  customProperties?: RoleAssignment['custom_properties'];
}

/** A permission granted directly. */
export interface PermissionGrant extends GrantBase {
  permission: string;
}

/**
 * Builds an `application` payload.
 *
 * @example
 * const b = new ApplicationPayloadBuilder();
 * b.addPermission({ name: 'View', permission_type: ['DataRead'] });
 * const app = b.addApplication({ name: 'Wiki', application_type: 'wiki' });
 * app.addLocalRole({ name: 'Reader', permissions: ['View'] });
 * app.addLocalUser({ name: 'alice', identities: ['alice@example.com'] });
 * b.grantRole({ identity: 'alice', identityType: 'local_user', application: 'Wiki', role: 'Reader', applyToApplication: true });
 * const payload = b.build();
 */
export class ApplicationPayloadBuilder {
  private readonly payload: ApplicationPayload = {
    applications: [],
    permissions: [],
    identity_to_permissions: [],
  };
  private readonly apps = new Registry<ApplicationBuilder>('application');
  private readonly permissions = new Registry<Permission>('permission');
  private readonly grants = new NameTable<IdentityToPermissions>();
  private readonly pool = new NameTable<object>();
  private grantStream: EntityStream<IdentityToPermissions> | undefined;

  /** Adds an application. Its custom property definitions are declared on the returned builder. */
  addApplication(
    app: Omit<
      Application,
      'local_users' | 'local_groups' | 'local_roles' | 'local_access_creds' | 'resources'
    >,
  ): ApplicationBuilder {
    const application: Application = { ...app };
    const definitions = ((this.payload.custom_property_definition ??= { applications: [] }).applications ??=
      []);
    const type = app.application_type.toLowerCase();
    let definition = definitions.find((d) => (d.application_type ?? '').toLowerCase() === type);
    if (!definition) definitions.push((definition = { application_type: app.application_type }));
    const builder = this.apps.add(
      app.name,
      new ApplicationBuilder(application, definition, this.permissions),
    );
    this.payload.applications.push(application);
    return builder;
  }

  /** The application named `name` (any case). */
  application(name: string): ApplicationBuilder | undefined {
    return this.apps.find(name);
  }

  /** Defines a permission (top level: applications share them). */
  addPermission(
    permission: Omit<Permission, 'permission_type'> & { permission_type: PermissionType[] },
  ): Permission {
    this.permissions.add(permission.name, permission);
    this.payload.permissions!.push(permission);
    return permission;
  }

  /** Gives `identity` a local role of `application`, on the application or some of its resources. */
  grantRole(grant: RoleGrant): void {
    const app = this.checkGrant(grant);
    app.roles.get(grant.role, 'role assignment of', grant.identity);
    const make = () => {
      const assignment: RoleAssignment = {
        application: grant.application,
        role: grant.role,
        apply_to_application: grant.applyToApplication ?? false,
      };
      if (grant.resources?.length) assignment.resources = grant.resources;
      if (grant.customProperties) assignment.custom_properties = grant.customProperties;
      return assignment;
    };
    (this.entry(grant).role_assignments ??= []).push(
      grant.customProperties ? make() : this.shared(grant, grant.role, make),
    );
  }

  /** Gives `identity` a permission on `application` or on some of its resources. */
  grantPermission(grant: PermissionGrant): void {
    this.checkGrant(grant);
    this.permissions.get(grant.permission, 'permission grant to', grant.identity);
    (this.entry(grant).application_permissions ??= []).push(
      this.shared(
        grant,
        grant.permission,
        () => {
          const granted: ApplicationPermission = {
            application: grant.application,
            permission: grant.permission,
            apply_to_application: grant.applyToApplication ?? false,
          };
          if (grant.resources?.length) granted.resources = grant.resources;
          return granted;
        },
        1,
      ),
    );
  }

  /**
   * Adds identity_to_permissions entries that are produced when the payload is read, for millions
   * of grants. They are checked by `validate`, not here, and must not repeat an identity that
   * `grantRole` or `grantPermission` also used.
   */
  addIdentityToPermissions(entries: Iterable<IdentityToPermissions>): void {
    if (!this.grantStream) {
      this.grantStream = new EntityStream<IdentityToPermissions>(
        this.payload.identity_to_permissions!,
        'identity_to_permissions entries',
      );
      this.payload.identity_to_permissions = this.grantStream as unknown as IdentityToPermissions[];
    }
    this.grantStream.add(entries);
  }

  /** The payload. The builder should not be used afterwards. */
  build(): ApplicationPayload {
    // The indexes are only needed while building: release them before the payload is validated.
    this.grants.clear();
    this.pool.clear();
    this.permissions.clear();
    for (const app of this.apps.all()) app.release();
    this.apps.clear();
    return this.payload;
  }

  private checkGrant(grant: GrantBase): ApplicationBuilder {
    const app = this.apps.get(grant.application, 'grant to', grant.identity);
    switch (grant.identityType) {
      case 'local_user':
        app.users.get(grant.identity, 'grant to', grant.identity);
        break;
      case 'local_group':
        app.groups.get(grant.identity, 'grant to', grant.identity);
        break;
      case 'local_access_creds':
        app.creds.get(grant.identity, 'grant to', grant.identity);
        break;
      case 'idp':
        // Identity-provider identities live in another data source.
        break;
    }
    if (grant.resources) for (const r of grant.resources) app.requireResource(r, 'grant to', grant.identity);
    return app;
  }

  /**
   * Identities with identical grants share one frozen grant object (a million users holding one of
   * fifty roles need fifty assignment objects, not a million). Grants with resources are not shared.
   */
  private shared<T extends object>(grant: GrantBase, what: string, make: () => T, salt = 0): T {
    if (grant.resources?.length) return make();
    const key = `${grant.application}\u0000${what}`;
    const s = salt * 2 + (grant.applyToApplication ? 1 : 0);
    const found = this.pool.find(key, s);
    if (found !== -1) return this.pool.valueAt(found) as T;
    // Frozen: a change to one identity's grant must not reach every identity sharing it (and the
    // serializer writes a frozen object once, then copies its bytes).
    const made = Object.freeze(make());
    this.pool.insert(key, made, s);
    return made;
  }

  private entry(grant: GrantBase): IdentityToPermissions {
    const salt = IDENTITY_TYPES.indexOf(grant.identityType);
    const found = this.grants.find(grant.identity, salt);
    if (found !== -1) return this.grants.valueAt(found);
    const entry: IdentityToPermissions = { identity: grant.identity, identity_type: grant.identityType };
    this.grants.insert(grant.identity, entry, salt);
    (this.grantStream?.eager ?? this.payload.identity_to_permissions!).push(entry);
    return entry;
  }
}
