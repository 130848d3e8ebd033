/** The three payload templates and their schemas. */
import * as z from 'zod';
import { applicationPayloadSchema, type ApplicationPayload } from './application.js';
import { hrisPayloadSchema, type HrisPayload } from './hris.js';
import { identityProviderPayloadSchema, type IdentityProviderPayload } from './identity-provider.js';

export const TEMPLATES = ['application', 'identity_provider', 'hris'] as const;
export const templateSchema = z.enum(TEMPLATES);
/** A custom provider template name. */
export type Template = z.infer<typeof templateSchema>;

/** The payload type of each template. */
export interface PayloadByTemplate {
  application: ApplicationPayload;
  identity_provider: IdentityProviderPayload;
  hris: HrisPayload;
}
export type Payload = PayloadByTemplate[Template];

/** The payload schema of each template. */
export const payloadSchemas = {
  application: applicationPayloadSchema,
  identity_provider: identityProviderPayloadSchema,
  hris: hrisPayloadSchema,
} as const satisfies Record<Template, z.ZodType>;

/** Whether `value` names a template. */
export function isTemplate(value: unknown): value is Template {
  return typeof value === 'string' && (TEMPLATES as readonly string[]).includes(value);
}
