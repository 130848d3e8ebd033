/** The connector's config: where the SCIM service is, how to sign in, and how to name the application. */
import { PERMISSION_TYPES } from '@oaakit/core';
import { z } from '@oaakit/core';

/** Name of the one declared secret: the bearer token, or the password of basic auth. */
export const CREDENTIAL_SECRET = 'credential';

const baseUrl = z
  .url({
    protocol: /^https?$/,
    error: 'must be an http:// or https:// URL, e.g. https://app.example.com/scim/v2',
  })
  .refine(
    (v) => {
      const url = new URL(v);
      return url.username === '' && url.password === '';
    },
    {
      error: `must not contain credentials: put them in the auth config and the "${CREDENTIAL_SECRET}" secret`,
    },
  )
  .refine((v) => new URL(v).search === '' && new URL(v).hash === '', {
    error: 'must not have a query string or fragment',
  });

/** Auth schemes of RFC 7644 section 2 that the connector speaks; the secret is never part of the config. */
export const scimAuthSchema = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z
        .literal('bearer')
        .meta({ description: `bearer: the secret "${CREDENTIAL_SECRET}" is the token` }),
    })
    .meta({ description: `Authorization: Bearer <secret "${CREDENTIAL_SECRET}">` }),
  z
    .strictObject({
      type: z
        .literal('basic')
        .meta({ description: `basic: a username, and the secret "${CREDENTIAL_SECRET}" as the password` }),
      username: z.string().min(1).meta({ description: 'the username of basic auth' }),
    })
    .meta({ description: `Authorization: Basic username:<secret "${CREDENTIAL_SECRET}">` }),
]);

/** Config of the SCIM application connector, checked by the runner before `extract` runs. */
export const scimAppConfigSchema = z.strictObject({
  /** SCIM base URL, the prefix of `/Users` and `/Groups` (RFC 7644 section 1.3). */
  baseUrl: baseUrl.meta({ description: 'SCIM base URL; /Users and /Groups are appended' }),
  /** Name of the application in the payload (and in the graph). */
  applicationName: z.string().min(1).meta({ description: 'name of the application in the payload' }),
  /** The application's type: graph node types become `OAA.<applicationType>.User` and so on. */
  applicationType: z
    .string()
    .min(1)
    .meta({ description: 'application_type of the application and its permissions' }),
  /** Resources asked for per page (`count`); servers may return fewer. */
  pageSize: z
    .int()
    .min(1)
    .max(10_000)
    .default(100)
    .meta({ description: 'count asked for per page; servers may cap it' }),
  auth: scimAuthSchema,
  /** Per-request timeout in milliseconds; the runner's default applies when absent. */
  timeoutMs: z.int().min(1).optional().meta({ description: 'per-request timeout in milliseconds' }),
  /** Whether `/Groups` is read; off for services without group support. */
  includeGroups: z
    .boolean()
    .default(true)
    .meta({ description: 'read /Groups (off for services without groups)' }),
  /** Permission types given to the permission made of each entitlement. */
  entitlementPermissionTypes: z
    .array(z.enum(PERMISSION_TYPES))
    .min(1)
    .default(['Uncategorized'])
    .meta({ description: 'permission_type of the permission made of each entitlement' }),
});

/** The parsed config (defaults applied). */
export type ScimAppConfig = z.infer<typeof scimAppConfigSchema>;
/** The config as written in a config file (defaults optional). */
export type ScimAppConfigInput = z.input<typeof scimAppConfigSchema>;
/** One of the auth schemes. */
export type ScimAuth = ScimAppConfig['auth'];
