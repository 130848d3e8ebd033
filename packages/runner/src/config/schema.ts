/**
 * The shape of `oaa.config.yaml` / `oaa.config.json`. This zod schema is the only definition: the
 * types come from `z.infer` and the published JSON Schema from `z.toJSONSchema`.
 */
import cron from 'node-cron';
import * as z from 'zod';
import { daemonSettingsSchema } from './daemon-schema.js';
import { secretReferenceSchema } from './references.js';

const CONNECTOR_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Where to push: the service URL and how to find its API key. */
export const targetSchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .meta({ description: 'Base URL of the service' }),
    credential: secretReferenceSchema.optional().meta({
      description: 'Reference to the API key; default: OAA_API_KEY, then the OS keychain entry of the URL',
    }),
  })
  .meta({ description: 'The service to push to; leave out to use the embedded emulator' });

/** One connector to run. */
export const connectorEntrySchema = z
  .strictObject({
    id: z
      .string()
      .regex(CONNECTOR_ID, {
        error:
          'must be lower-case letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64 characters',
      })
      .meta({ description: 'Unique id of this connector entry; names its state directory' }),
    plugin: z.string().min(1, { error: 'must not be empty' }).meta({
      description: 'npm package name, or a path relative to the config file, of the connector plugin',
    }),
    provider: z
      .string()
      .min(1, { error: 'must not be empty' })
      .meta({ description: 'Name of the custom provider to push to' }),
    dataSource: z
      .string()
      .min(1, { error: 'must not be empty' })
      .meta({ description: 'Name of the data source under the provider' }),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "The connector's config, checked by the plugin's own schema" }),
    secrets: z.record(z.string(), secretReferenceSchema).optional().meta({
      description: 'Secret name -> reference (env:VAR or keychain:SERVICE/ACCOUNT); never a plain value',
    }),
    schedule: z
      .string()
      .refine((expr) => cron.validate(expr), {
        error: 'must be a cron expression, e.g. "0 * * * *" (hourly) or "*/15 * * * *"',
      })
      .optional()
      .meta({ description: 'Cron expression for the daemon' }),
    timezone: z
      .string()
      .refine(isTimeZone, { error: 'must be an IANA time zone, e.g. "Europe/Berlin" or "UTC"' })
      .optional()
      .meta({ description: 'Time zone of the schedule; default the machine time zone' }),
    jitterSeconds: z
      .number()
      .int({ error: 'must be a whole number of seconds' })
      .min(0, { error: 'must be 0 or more' })
      .max(3600, { error: 'must be at most 3600' })
      .optional()
      .meta({ description: 'Random delay before each scheduled run, in seconds' }),
    maxDeletionShare: z
      .number()
      .min(0, { error: 'must be from 0 to 1' })
      .max(1, { error: 'must be from 0 to 1' })
      .optional()
      .meta({
        description:
          'Largest share (0..1) of last push identities a run may remove without --force; default 0.2',
      }),
    record: z
      .strictObject({
        scrubFields: z.array(z.string().min(1, { error: 'must not be empty' })).meta({
          description:
            'Names whose values are replaced by [scrubbed]: JSON body fields (at any depth), query and form parameters, headers',
        }),
      })
      .optional()
      .meta({
        description:
          "Recordings of this connector's source (oaa run --record) and their replays (--replay); the connector's secrets and credential headers are always scrubbed",
      }),
  })
  .meta({
    description: 'A connector: which plugin, with which config, pushes into which provider and data source',
  });

/** The whole config file. */
export const configSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'JSON Schema of this file, for editors' }),
    target: targetSchema.optional(),
    stateDir: z
      .string()
      .min(1, { error: 'must not be empty' })
      .optional()
      .meta({ description: 'State directory, relative to the config file; default .oaa/state' }),
    connectors: z.array(connectorEntrySchema).meta({ description: 'The connectors this config runs' }),
    daemon: daemonSettingsSchema.optional(),
  })
  .superRefine((config, ctx) => {
    const ids = new Map<string, number>();
    const targets = new Map<string, number>();
    config.connectors.forEach((entry, index) => {
      const sameId = ids.get(entry.id);
      if (sameId !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['connectors', index, 'id'],
          message: `duplicates connectors[${sameId}].id; ids must be unique`,
        });
      }
      ids.set(entry.id, index);
      const key = JSON.stringify([entry.provider, entry.dataSource]);
      const sameTarget = targets.get(key);
      if (sameTarget !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['connectors', index, 'dataSource'],
          message: `connectors[${sameTarget}] already pushes to this provider and data source; each data source has one connector`,
        });
      }
      targets.set(key, index);
    });
  })
  .meta({
    title: 'oaakit config',
    description: 'oaa.config.yaml / oaa.config.json: connectors to run and where to push them',
  });

/** A parsed config file. */
export type OaaConfig = z.infer<typeof configSchema>;
/** One entry of `connectors`. */
export type ConnectorEntry = z.infer<typeof connectorEntrySchema>;
/** The `target` section. */
export type TargetConfig = z.infer<typeof targetSchema>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON Schema of the config file (draft 2020-12), generated from {@link configSchema}, for
 * editors (`$schema`) and documentation.
 */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
}
