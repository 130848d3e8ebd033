/** The connector's config: which cluster, as which role, which databases, and how to secure the connection. */
import { z } from '@oaakit/core';

/** Name of the one declared secret: the password of the `user` role. */
export const PASSWORD_SECRET = 'password';

/** Config of the PostgreSQL connector, checked by the runner before `check` or `extract` runs. */
export const postgresConfigSchema = z
  .strictObject({
    host: z.string().min(1).describe('host name or IP address of the PostgreSQL server'),
    port: z.int().min(1).max(65_535).default(5432).describe('TCP port of the server'),
    user: z
      .string()
      .min(1)
      .describe(
        `role the connector signs in as (its password is the secret "${PASSWORD_SECRET}"); ` +
          'a plain LOGIN role with CONNECT on each database is enough',
      ),
    databases: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('databases to read; absent means every database that allows connections (datallowconn)'),
    ssl: z
      .enum(['disable', 'require', 'verify-full'])
      .default('verify-full')
      .describe(
        'disable: plain TCP; require: TLS without checking the certificate; ' +
          'verify-full: TLS, certificate checked against caFile (or the system CAs) and the host name',
      ),
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe('PEM file of the CA that signed the server certificate (ssl verify-full only)'),
    statementTimeoutMs: z
      .int()
      .min(1)
      .default(60_000)
      .describe('statement_timeout of each catalog query, in milliseconds'),
    applicationName: z
      .string()
      .min(1)
      .optional()
      .describe('name of the application in the payload; default "PostgreSQL <host>:<port>"'),
  })
  .refine((c) => c.caFile === undefined || c.ssl === 'verify-full', {
    path: ['caFile'],
    error: 'caFile is only used with ssl "verify-full"',
  });

/** The parsed config (defaults applied). */
export type PostgresConfig = z.infer<typeof postgresConfigSchema>;
/** The config as written in a config file (defaults optional). */
export type PostgresConfigInput = z.input<typeof postgresConfigSchema>;
