/** The connector's config: this zod schema is the only definition of its shape. */
import { z } from '@oaakit/core';

/** The config of the __CONNECTOR_ID__ connector, as written under `config:` in oaa.config.yaml. */
export const configSchema = z.strictObject({
  source: z
    .string()
    .min(1)
    .describe(
      'URL of the JSON export of __DISPLAY_NAME__ (http or https), or the path of a JSON file of the same shape (relative to the config file)',
    ),
  name: z
    .string()
    .min(1)
    .default('__DISPLAY_NAME__')
    .describe('name of the identity provider in the payload'),
  idpType: z
    .string()
    .min(1)
    .default('__SOURCE_TYPE__')
    .describe('idp_type: graph nodes are named OAA.<idpType>.IdPUser, .IdPGroup, .IdPDomain'),
});

/** The parsed config, defaults applied. */
export type Config = z.infer<typeof configSchema>;
