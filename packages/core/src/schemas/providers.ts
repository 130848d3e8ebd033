/** Custom providers, data sources and provider icons. */
import * as z from 'zod';
import { opt } from './primitives.js';
import { templateSchema } from './templates.js';

/** Provider names: letters, digits, space and `@#$%&*:()!,_'"=.-` (vendor SDK). */
export const PROVIDER_NAME = /^[\p{L}\p{N} @#$%&*:()!,_'"=.-]+$/u;
const providerName = z.string().regex(PROVIDER_NAME, {
  error: `must be letters, digits, spaces or @#$%&*:()!,_'"=.-`,
});

export const LIFECYCLE_MANAGEMENT_TYPES = ['SCIM', 'SEND_REST_PAYLOAD'] as const;

/** A custom provider as the service returns it. */
export const providerSchema = z.looseObject({
  id: z.string(),
  external_id: opt(z.string()),
  name: z.string(),
  custom_template: z.string(),
  custom_templates: opt(z.array(z.string())),
  application_types: opt(z.array(z.string())),
  idp_types: opt(z.array(z.string())),
  file_system_types: opt(z.array(z.string())),
  hris_types: opt(z.array(z.string())),
  principal_types: opt(z.array(z.string())),
  resource_types: opt(z.array(z.string())),
  schema_definition_json: opt(z.string()),
  provisioning: opt(z.boolean()),
  internal_app_name: opt(z.string()),
  configuration_json: opt(z.string()),
  data_plane_id: opt(z.string()),
  team_id: opt(z.string()),
  state: opt(z.string()),
});
export type Provider = z.infer<typeof providerSchema>;

/** Body of `POST /api/v1/providers/custom`. */
export const providerCreateSchema = z.strictObject({
  name: providerName,
  custom_template: templateSchema,
  external_id: opt(z.string()),
  provisioning: opt(z.boolean()),
  configuration_json: opt(z.string()),
  internal_app_name: opt(z.string()),
  data_plane_id: opt(z.string()),
  team_id: opt(z.string()),
  external_lifecycle_management_type: opt(z.enum(LIFECYCLE_MANAGEMENT_TYPES)),
  push_type: opt(z.number().int()),
});
export type ProviderCreate = z.infer<typeof providerCreateSchema>;

/**
 * Body of `PATCH /api/v1/providers/custom/{id}`: the vendor SDK's `update_provisioning_status`.
 * `provisioning: true` makes an `hris` provider the system of record for lifecycle-management policies.
 */
export const providerUpdateSchema = z.strictObject({ provisioning: z.boolean() });
export type ProviderUpdate = z.infer<typeof providerUpdateSchema>;

/** A data source; fields beyond `id` and `name` are the emulator's (the spec shows none). */
export const dataSourceSchema = z.looseObject({ id: z.string(), name: z.string(), status: opt(z.string()) });
export type DataSource = z.infer<typeof dataSourceSchema>;

/** Body of `POST /api/v1/providers/custom/{id}/datasources`. */
export const dataSourceCreateSchema = z.strictObject({ id: z.string(), name: providerName });
export type DataSourceCreate = z.infer<typeof dataSourceCreateSchema>;

/** Largest provider icon, in bytes (decoded). */
export const MAX_ICON_BYTES = 64 * 1024;

/** Body of `POST /api/v1/providers/custom/{id}:icon`; `id` is optional (third-party SDKs omit it). */
export const iconSetSchema = z.strictObject({ id: opt(z.string()), icon_base64: z.string().min(1) });
/** Response of icon reads. */
export const iconSchema = z.looseObject({ mime_type: z.string(), icon_base64: z.string() });
export type Icon = z.infer<typeof iconSchema>;

/** One page of a list response; only `has_more` decides whether more results exist. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.looseObject({ values: opt(z.array(item)), next_page_token: opt(z.string()), has_more: opt(z.boolean()) });
