/** The `application` payload template: custom applications with local identities and resources. */
import * as z from 'zod';
import {
  customPropertiesSchema,
  dynamicPropertiesSchema,
  entityCommon,
  operationSchema,
  ownersSchema,
  propertyDefinitionsSchema,
  type Owner,
  type tagSchema,
} from './common.js';
import { limitedText, list, opt, payloadString, stringList, timestamp } from './primitives.js';

/** Canonical permission types. */
export const PERMISSION_TYPES = [
  'DataRead',
  'DataWrite',
  'MetadataRead',
  'MetadataWrite',
  'NonData',
  'DataCreate',
  'DataDelete',
  'MetadataCreate',
  'MetadataDelete',
  'Uncategorized',
] as const;
export const permissionTypeSchema = z.enum(PERMISSION_TYPES);
export type PermissionType = z.infer<typeof permissionTypeSchema>;

/**
 * Identity types of an `identity_to_permissions` entry. `local_access_creds` grants to an
 * application's access credential (vendor SDK `OAAIdentityType`); the SDK never sends `local_role`.
 */
export const IDENTITY_TYPES = ['local_user', 'local_group', 'idp', 'local_access_creds'] as const;
export const identityTypeSchema = z.enum(IDENTITY_TYPES);
/** An identity type of an `identity_to_permissions` entry. */
export type IdentityType = z.infer<typeof identityTypeSchema>;

/** Kinds of local user (vendor SDK `LocalUserType`). */
export const LOCAL_USER_TYPES = ['human', 'service_account'] as const;
export const localUserTypeSchema = z.enum(LOCAL_USER_TYPES);
/** A kind of local user: a person or a service account. */
export type LocalUserType = z.infer<typeof localUserTypeSchema>;

const name = payloadString;

/**
 * A link from a resource to another graph node. The spec names five kinds of node (a data-warehouse
 * user, a cloud service account, a cloud IAM role, an identity provider's enterprise application, a
 * query-engine user) but omits their names, which carry vendor names (the vendor SDK's tests send
 * `GoogleCloudServiceAccount`): any non-empty node type is accepted.
 */
export const connectionSchema = z.strictObject({
  id: name(),
  node_type: name().min(1, { error: 'must name the connected node type, e.g. GoogleCloudServiceAccount' }),
});
/** A resource's link to another graph node. */
export type Connection = z.infer<typeof connectionSchema>;

/** A resource; sub-resources nest to any depth with the same fields. */
export interface Resource {
  name: string;
  id?: string | null | undefined;
  resource_type: string;
  description?: string | null | undefined;
  custom_properties?: z.infer<typeof customPropertiesSchema>;
  sub_resources?: Resource[] | null | undefined;
  connections?: Connection[] | null | undefined;
  tags?: z.infer<typeof tagSchema>[] | null | undefined;
  owners?: Owner[] | null | undefined;
  operation?: z.infer<typeof operationSchema> | null | undefined;
}
export const resourceSchema: z.ZodType<Resource> = z.strictObject({
  name: name(),
  id: opt(name()),
  resource_type: name(),
  description: opt(limitedText(255)),
  sub_resources: list(z.lazy(() => resourceSchema)),
  connections: list(connectionSchema),
  owners: ownersSchema,
  ...entityCommon,
});

/**
 * A local user. It is known by `id`, else `unique_id`, else `name`: grants, and nothing else,
 * reference it by that key (or by its name).
 */
export const localUserSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  id: opt(name()),
  email: opt(name()),
  user_type: opt(localUserTypeSchema),
  identities: stringList(),
  groups: stringList(),
  access_creds: stringList(),
  is_active: opt(z.boolean()),
  created_at: opt(timestamp()),
  last_login_at: opt(timestamp()),
  password_last_changed_at: opt(timestamp()),
  deactivated_at: opt(timestamp()),
  owners: ownersSchema,
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type LocalUser = z.infer<typeof localUserSchema>;

/** A local group, known by `id`, else `unique_id`, else `name`; `groups` names its parent groups. */
export const localGroupSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  id: opt(name()),
  identities: stringList(),
  groups: stringList(),
  created_at: opt(timestamp()),
  owners: ownersSchema,
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type LocalGroup = z.infer<typeof localGroupSchema>;

/**
 * A local role, known by `id`, else `unique_id`, else `name`. `roles` names nested roles (whose
 * permissions it also grants), by their keys.
 */
export const localRoleSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  id: opt(name()),
  permissions: stringList(),
  roles: stringList(),
  owners: ownersSchema,
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type LocalRole = z.infer<typeof localRoleSchema>;

/**
 * A local access credential (API key, token) of an application, from the vendor SDK, which always
 * sends its `id`. Known by `id`, else `unique_id`, else `name`; users list theirs in `access_creds`,
 * and it receives grants as identity type `local_access_creds`.
 */
export const localAccessCredSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  id: opt(name()),
  is_active: opt(z.boolean()),
  created_at: opt(timestamp()),
  expires_at: opt(timestamp()),
  last_used_at: opt(timestamp()),
  can_expire: opt(z.boolean()),
  owners: ownersSchema,
  ...entityCommon,
});
export type LocalAccessCred = z.infer<typeof localAccessCredSchema>;

export const applicationSchema = z.strictObject({
  name: name(),
  application_type: name(),
  description: opt(limitedText(256)),
  local_users: list(localUserSchema),
  local_groups: list(localGroupSchema),
  local_roles: list(localRoleSchema),
  local_access_creds: list(localAccessCredSchema),
  resources: list(resourceSchema),
  idp_app_id: opt(name()),
  owners: ownersSchema,
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type Application = z.infer<typeof applicationSchema>;

export const permissionSchema = z.strictObject({
  name: name(),
  permission_type: z.array(permissionTypeSchema),
  application_type: stringList(),
  apply_to_sub_resources: opt(z.boolean()),
  resource_types: stringList(),
  operation: opt(operationSchema),
});
export type Permission = z.infer<typeof permissionSchema>;

export const applicationPermissionSchema = z.strictObject({
  application: name(),
  resources: stringList(),
  permission: name(),
  apply_to_application: opt(z.boolean()),
});
/** A permission granted to an identity on an application or some of its resources. */
export type ApplicationPermission = z.infer<typeof applicationPermissionSchema>;

export const roleAssignmentSchema = z.strictObject({
  application: name(),
  role: name(),
  apply_to_application: opt(z.boolean()),
  resources: stringList(),
  custom_properties: customPropertiesSchema,
});
/** A local role given to an identity; `custom_properties` are checked against `role_assignment_properties`. */
export type RoleAssignment = z.infer<typeof roleAssignmentSchema>;

export const identityToPermissionsSchema = z.strictObject({
  identity: name(),
  identity_type: identityTypeSchema,
  application_permissions: list(applicationPermissionSchema),
  role_assignments: list(roleAssignmentSchema),
  operation: opt(operationSchema),
});
export type IdentityToPermissions = z.infer<typeof identityToPermissionsSchema>;

/**
 * The custom property definitions of one application type. The vendor SDK leaves out
 * `application_type` when the application's type is empty: such a definition is that of the
 * applications whose `application_type` is `""`.
 */
export const applicationPropertyDefinitionSchema = z.strictObject({
  application_type: opt(name()),
  application_properties: propertyDefinitionsSchema,
  local_user_properties: propertyDefinitionsSchema,
  local_group_properties: propertyDefinitionsSchema,
  local_role_properties: propertyDefinitionsSchema,
  local_access_creds_properties: propertyDefinitionsSchema,
  role_assignment_properties: propertyDefinitionsSchema,
  resources: list(z.strictObject({ resource_type: name(), properties: propertyDefinitionsSchema })),
});
/** The custom property definitions of one application type. */
export type ApplicationPropertyDefinition = z.infer<typeof applicationPropertyDefinitionSchema>;

/** The whole `application` payload. */
export const applicationPayloadSchema = z.strictObject({
  custom_property_definition: opt(
    z.strictObject({ applications: list(applicationPropertyDefinitionSchema) }),
  ),
  applications: z.array(applicationSchema).min(1, { error: 'at least one application is required' }),
  permissions: list(permissionSchema),
  identity_to_permissions: list(identityToPermissionsSchema),
  incremental_change: opt(z.boolean()),
});
export type ApplicationPayload = z.infer<typeof applicationPayloadSchema>;
