/**
 * The `daemon` section of the config file: how `oaa daemon` serves its status endpoints and how many
 * runs it allows at once. Command-line flags win over these keys; the defaults apply when neither
 * is given.
 */
import * as z from 'zod';

/** What the daemon uses when neither a flag nor the config file says otherwise. */
export const DAEMON_DEFAULTS = {
  /** Port of `/healthz` and `/metrics` (9464 is the port OpenTelemetry's Prometheus exporter uses). */
  port: 9464,
  /** Loopback only, so metrics are not exposed to the network unless asked for. */
  host: '127.0.0.1',
  /** Connector runs in progress at once, across all connectors. */
  concurrency: 2,
  /** Seconds a shutdown waits for runs in progress before aborting them. */
  graceSeconds: 30,
} as const;

/** The `daemon` section. */
export const daemonSettingsSchema = z
  .strictObject({
    port: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be from 0 to 65535' })
      .max(65535, { error: 'must be from 0 to 65535' })
      .optional()
      .meta({
        description: `Port of /healthz and /metrics; 0 picks a free one; default ${DAEMON_DEFAULTS.port}`,
      }),
    host: z
      .string()
      .min(1, { error: 'must not be empty' })
      .optional()
      .meta({ description: `Address to bind; default ${DAEMON_DEFAULTS.host}` }),
    concurrency: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be from 1 to 64' })
      .max(64, { error: 'must be from 1 to 64' })
      .optional()
      .meta({
        description: `Connector runs in progress at once, across connectors; default ${DAEMON_DEFAULTS.concurrency}`,
      }),
    graceSeconds: z
      .number()
      .min(0, { error: 'must be from 0 to 3600' })
      .max(3600, { error: 'must be from 0 to 3600' })
      .optional()
      .meta({
        description: `Seconds a shutdown waits for runs in progress before aborting them; default ${DAEMON_DEFAULTS.graceSeconds}`,
      }),
  })
  .meta({ description: 'Settings of `oaa daemon`; its command-line flags win over them' });

/** The `daemon` section as written (every key optional). */
export type DaemonSettingsInput = z.infer<typeof daemonSettingsSchema>;

/** The daemon's settings with flags, config and defaults merged. */
export interface DaemonSettings {
  port: number;
  host: string;
  concurrency: number;
  graceSeconds: number;
}

/** Flags over the config's `daemon` section over {@link DAEMON_DEFAULTS}. */
export function resolveDaemonSettings(
  config: DaemonSettingsInput | undefined,
  flags: Partial<DaemonSettings> = {},
): DaemonSettings {
  return {
    port: flags.port ?? config?.port ?? DAEMON_DEFAULTS.port,
    host: flags.host ?? config?.host ?? DAEMON_DEFAULTS.host,
    concurrency: flags.concurrency ?? config?.concurrency ?? DAEMON_DEFAULTS.concurrency,
    graceSeconds: flags.graceSeconds ?? config?.graceSeconds ?? DAEMON_DEFAULTS.graceSeconds,
  };
}
