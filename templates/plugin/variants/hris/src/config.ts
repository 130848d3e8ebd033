/** The connector's config: this zod schema is the only definition of its shape. */
import { IDP_PROVIDER_TYPES, z } from '@oaakit/core';

/** The config of the __CONNECTOR_ID__ connector, as written under `config:` in oaa.config.yaml. */
export const configSchema = z.strictObject({
  source: z
    .string()
    .min(1)
    .describe(
      'URL of the JSON export of __DISPLAY_NAME__ (http or https), or the path of a JSON file of the same shape (relative to the config file)',
    ),
  name: z.string().min(1).default('__DISPLAY_NAME__').describe('name of the HR system in the payload'),
  hrisType: z
    .string()
    .min(1)
    .default('__SOURCE_TYPE__')
    .describe('hris_type: graph nodes are named OAA.<hrisType>.HRISEmployee, .HRISGroup'),
  idpProviders: z
    .array(z.enum(IDP_PROVIDER_TYPES))
    .default([])
    .describe('identity providers whose users the employees are matched to, e.g. ["okta"]'),
});

/** The parsed config, defaults applied. */
export type Config = z.infer<typeof configSchema>;
