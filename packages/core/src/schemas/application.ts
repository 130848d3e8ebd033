/** The `application` payload template: custom applications with local identities and resources. */
import * as z from 'zod';
import {
  customPropertiesSchema,
  dynamicPropertiesSchema,
  entityCommon,
  operationSchema,
  propertyDefinitionsSchema,
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
 * Node types a resource `connection` may link to. The spec names five kinds and omits the vendor
 * names; these are oaakit's neutral names for them.
 */
export const CONNECTION_NODE_TYPES = [
  'WarehouseUser',
  'CloudServiceAccount',
  'CloudIamRole',
  'IdpEnterpriseApplication',
  'QueryEngineUser',
] as const;

/** Identity types of an `identity_to_permissions` entry. */
export const IDENTITY_TYPES = ['local_user', 'local_group', 'idp'] as const;
export const identityTypeSchema = z.enum(IDENTITY_TYPES);

const name = payloadString;

export const connectionSchema = z.strictObject({ id: name(), node_type: z.enum(CONNECTION_NODE_TYPES) });

/** A resource; sub-resources nest to any depth with the same fields. */
export interface Resource {
  name: string;
  id?: string | null | undefined;
  resource_type: string;
  description?: string | null | undefined;
  custom_properties?: z.infer<typeof customPropertiesSchema>;
  sub_resources?: Resource[] | null | undefined;
  connections?: z.infer<typeof connectionSchema>[] | null | undefined;
  tags?: z.infer<typeof tagSchema>[] | null | undefined;
  operation?: z.infer<typeof operationSchema> | null | undefined;
}
export const resourceSchema: z.ZodType<Resource> = z.strictObject({
  name: name(),
  id: opt(name()),
  resource_type: name(),
  description: opt(limitedText(255)),
  sub_resources: list(z.lazy(() => resourceSchema)),
  connections: list(connectionSchema),
  ...entityCommon,
});

export const localUserSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  id: opt(name()),
  identities: stringList(),
  groups: stringList(),
  access_creds: stringList(),
  is_active: opt(z.boolean()),
  created_at: opt(timestamp()),
  last_login_at: opt(timestamp()),
  password_last_changed_at: opt(timestamp()),
  deactivated_at: opt(timestamp()),
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type LocalUser = z.infer<typeof localUserSchema>;

export const localGroupSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  identities: stringList(),
  groups: stringList(),
  created_at: opt(timestamp()),
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type LocalGroup = z.infer<typeof localGroupSchema>;

export const localRoleSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  permissions: stringList(),
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type LocalRole = z.infer<typeof localRoleSchema>;

/** A local access credential (API key, token) of an application, from the vendor SDK. */
export const localAccessCredSchema = z.strictObject({
  name: name(),
  unique_id: opt(name()),
  is_active: opt(z.boolean()),
  created_at: opt(timestamp()),
  expires_at: opt(timestamp()),
  last_used_at: opt(timestamp()),
  can_expire: opt(z.boolean()),
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

export const roleAssignmentSchema = z.strictObject({
  application: name(),
  role: name(),
  apply_to_application: opt(z.boolean()),
  resources: stringList(),
  custom_properties: customPropertiesSchema,
});

export const identityToPermissionsSchema = z.strictObject({
  identity: name(),
  identity_type: identityTypeSchema,
  application_permissions: list(applicationPermissionSchema),
  role_assignments: list(roleAssignmentSchema),
  operation: opt(operationSchema),
});
export type IdentityToPermissions = z.infer<typeof identityToPermissionsSchema>;

export const applicationPropertyDefinitionSchema = z.strictObject({
  application_type: name(),
  application_properties: propertyDefinitionsSchema,
  local_user_properties: propertyDefinitionsSchema,
  local_group_properties: propertyDefinitionsSchema,
  local_role_properties: propertyDefinitionsSchema,
  local_access_creds_properties: propertyDefinitionsSchema,
  role_assignment_properties: propertyDefinitionsSchema,
  resources: list(z.strictObject({ resource_type: name(), properties: propertyDefinitionsSchema })),
});

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
