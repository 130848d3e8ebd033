/** The `identity_provider` payload template: a custom directory of users, groups and apps. */
import * as z from 'zod';
import {
  customPropertiesSchema,
  dynamicPropertiesSchema,
  entityCommon,
  propertyDefinitionsSchema,
} from './common.js';
import { list, opt, payloadString, stringList } from './primitives.js';

const name = payloadString;

/**
 * `provider_type` of a linked source identity. The spec lists `any`, `custom` and five directory
 * products whose vendor names it omits; these are the names the HRIS `idp_providers` list uses.
 */
export const IDP_PROVIDER_TYPES = [
  'any',
  'custom',
  'active_directory',
  'azure_ad',
  'google_workspace',
  'okta',
  'one_login',
] as const;

const identityRef = z.strictObject({ identity: name() });

/** Kinds of identity-provider user (vendor SDK `IdPUserIdentityType`). */
export const IDP_USER_IDENTITY_TYPES = ['HUMAN', 'NONHUMAN'] as const;
export const idpUserIdentityTypeSchema = z.enum(IDP_USER_IDENTITY_TYPES);
/** Whether an identity-provider user is a person or not (a service or bot account). */
export type IdpUserIdentityType = z.infer<typeof idpUserIdentityTypeSchema>;

/**
 * The identity in another identity provider that this user or group is (for example the directory
 * account an SSO user comes from); it also receives the authorizations granted here.
 */
export const sourceIdentitySchema = z.strictObject({
  identity: name(),
  provider_type: z.enum(IDP_PROVIDER_TYPES),
});
export type SourceIdentity = z.infer<typeof sourceIdentitySchema>;

/** Cloud roles a principal can assume: a list of `{identity}` or an object with an `identity` list. */
export const assumedRoleArnsSchema = opt(
  z.union([z.array(identityRef), z.strictObject({ identity: stringList() })]),
);

/**
 * An assignment of a user or group to an app of the provider; its `custom_properties` are checked
 * against `app_assignment_properties`.
 */
export const appAssignmentSchema = z.strictObject({
  id: name(),
  name: opt(name()),
  app_id: name(),
  custom_properties: customPropertiesSchema,
});
export type AppAssignment = z.infer<typeof appAssignmentSchema>;

export const idpDomainSchema = z.strictObject({
  name: name(),
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});

export const idpUserSchema = z.strictObject({
  name: name(),
  email: opt(name()),
  identity: opt(name()),
  full_name: opt(name()),
  department: opt(name()),
  is_active: opt(z.boolean()),
  is_guest: opt(z.boolean()),
  groups: list(identityRef),
  assumed_role_arns: assumedRoleArnsSchema,
  source_identity: opt(sourceIdentitySchema),
  manager_id: opt(name()),
  entities_owned: list(z.strictObject({ node_type: name(), id: name() })),
  app_assignments: list(appAssignmentSchema),
  identity_type: opt(idpUserIdentityTypeSchema),
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type IdpUser = z.infer<typeof idpUserSchema>;

export const idpGroupSchema = z.strictObject({
  name: name(),
  identity: opt(name()),
  full_name: opt(name()),
  is_security_group: opt(z.boolean()),
  groups: list(identityRef),
  assumed_role_arns: assumedRoleArnsSchema,
  source_identity: opt(sourceIdentitySchema),
  app_assignments: list(appAssignmentSchema),
  dynamic_properties: dynamicPropertiesSchema,
  ...entityCommon,
});
export type IdpGroup = z.infer<typeof idpGroupSchema>;

export const idpAppSchema = z.strictObject({
  id: name(),
  name: name(),
  description: opt(name()),
  assumed_role_arns: assumedRoleArnsSchema,
  ...entityCommon,
});
export type IdpApp = z.infer<typeof idpAppSchema>;

/** The whole `identity_provider` payload. */
export const identityProviderPayloadSchema = z.strictObject({
  name: name(),
  idp_type: name(),
  idp_description: opt(name()),
  custom_property_definition: opt(
    z.strictObject({
      domain_properties: propertyDefinitionsSchema,
      user_properties: propertyDefinitionsSchema,
      group_properties: propertyDefinitionsSchema,
      app_properties: propertyDefinitionsSchema,
      app_assignment_properties: propertyDefinitionsSchema,
    }),
  ),
  domains: list(idpDomainSchema),
  users: list(idpUserSchema),
  groups: list(idpGroupSchema),
  apps: list(idpAppSchema),
  incremental_change: opt(z.boolean()),
});
export type IdentityProviderPayload = z.infer<typeof identityProviderPayloadSchema>;
