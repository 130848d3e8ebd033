/** The `hris` payload template: employees, managers and organizational groups (vendor SDK fields). */
import * as z from 'zod';
import { customPropertiesSchema, propertyDefinitionsSchema } from './common.js';
import { IDP_PROVIDER_TYPES } from './identity-provider.js';
import { list, opt, payloadString, stringList, timestamp } from './primitives.js';

const name = payloadString;
const idRef = z.strictObject({ id: name() });

/** Common employment types; other values are accepted, these are the documented ones. */
export const EMPLOYMENT_TYPES = ['FULL_TIME', 'PART_TIME', 'INTERN', 'CONTRACTOR', 'FREELANCE'] as const;

export const hrisSystemSchema = z.strictObject({
  id: name(),
  name: name(),
  url: opt(name()),
  idp_providers: list(z.enum(IDP_PROVIDER_TYPES)),
  custom_properties: customPropertiesSchema,
});

export const hrisEmployeeSchema = z.strictObject({
  id: name(),
  name: name(),
  employee_number: name(),
  company: opt(name()),
  first_name: name(),
  last_name: name(),
  preferred_name: opt(name()),
  display_full_name: opt(name()),
  canonical_name: opt(name()),
  username: opt(name()),
  email: opt(name()),
  idp_id: opt(name()),
  personal_email: opt(name()),
  home_location: opt(name()),
  work_location: opt(name()),
  cost_center: opt(idRef),
  department: opt(idRef),
  managers: list(idRef),
  groups: list(idRef),
  employment_status: name(),
  is_active: z.boolean(),
  start_date: opt(timestamp()),
  termination_date: opt(timestamp()),
  job_title: opt(name()),
  employment_types: stringList(),
  primary_time_zone: opt(name()),
  custom_properties: customPropertiesSchema,
});
export type HrisEmployee = z.infer<typeof hrisEmployeeSchema>;

export const hrisGroupSchema = z.strictObject({
  id: name(),
  name: name(),
  group_type: opt(name()),
  custom_properties: customPropertiesSchema,
});
export type HrisGroup = z.infer<typeof hrisGroupSchema>;

/** The whole `hris` payload. Incremental updates are not available for this template. */
export const hrisPayloadSchema = z.strictObject({
  name: name(),
  hris_type: name(),
  custom_property_definition: opt(
    z.strictObject({
      system_properties: propertyDefinitionsSchema,
      employee_properties: propertyDefinitionsSchema,
      group_properties: propertyDefinitionsSchema,
    }),
  ),
  system: hrisSystemSchema,
  employees: list(hrisEmployeeSchema),
  groups: list(hrisGroupSchema),
});
export type HrisPayload = z.infer<typeof hrisPayloadSchema>;
