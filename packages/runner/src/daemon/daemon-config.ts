/**
 * A config file as the daemon takes it: read, checked against the schema, and every scheduled
 * connector's plugin imported and its config checked by the plugin's own schema. Doing this up
 * front makes a broken config fail at start (or be refused by a reload) instead of failing every
 * tick; secrets are still resolved at each run, so rotated values are picked up.
 */
import { loadConfig } from '../config/load-config.js';
import type { LoadedConfig } from '../config/load-config.js';
import type { ConnectorEntry } from '../config/schema.js';
import { parseConnectorConfig } from '../pipeline/extract-step.js';
import { loadConnectorPlugin } from '../run-configured.js';

/** A connector entry that has a schedule. */
export type ScheduledEntry = ConnectorEntry & { schedule: string };

/** Whether the daemon runs this entry. */
export function isScheduled(entry: ConnectorEntry): entry is ScheduledEntry {
  return entry.schedule !== undefined;
}

/**
 * Imports the plugin of every scheduled connector and checks its config, throwing the first
 * problem (`PLUGIN_INVALID`, `PLUGIN_API_VERSION`, `CONFIG_INVALID`) with the connector named.
 */
export async function checkScheduledConnectors(loaded: LoadedConfig): Promise<ScheduledEntry[]> {
  const scheduled = loaded.config.connectors.filter(isScheduled);
  for (const [index, entry] of loaded.config.connectors.entries()) {
    if (!isScheduled(entry)) continue;
    const { connector } = await loadConnectorPlugin(loaded, entry.id);
    parseConnectorConfig(connector, entry.config, `connectors[${index}].config`, entry.id);
  }
  return scheduled;
}

/** Reads the config file again and checks it as {@link checkScheduledConnectors} does. */
export async function reloadDaemonConfig(path: string): Promise<LoadedConfig> {
  const loaded = await loadConfig({ path });
  await checkScheduledConnectors(loaded);
  return loaded;
}
