/**
 * A connector whose definition depends on its config (`forConfig`): the REST connector's config
 * names a manifest, and the manifest says which template it makes, which secrets it needs and what
 * it reads. The runner asks such a connector for the connector of one config before anything else
 * (secrets, run, check, acceptance checks) and uses that one from then on.
 */
import { OaaError } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { parseConnectorConfig } from '../pipeline/extract-step.js';
import { wrapCause } from '../pipeline/wrap-cause.js';
import { assertConnector } from './check-connector.js';

/** Where the config comes from, for messages. */
export interface ForConfigOptions {
  /** The config entry's id (default the connector's id). */
  connectorId?: string | undefined;
  /** Where the config sits in the config file; default `config`. */
  keyPath?: string | undefined;
  /** Where relative paths in the config are resolved from. */
  baseDir?: string | undefined;
}

/**
 * The connector that runs `config`: `connector` itself unless it has `forConfig`, else what its
 * `forConfig` returns for the config parsed by its schema. Throws `CONFIG_INVALID` when the config
 * breaks the schema or `forConfig` refuses it (its error is the cause, its message and hints
 * kept), and `PLUGIN_INVALID` when `forConfig` returns something that is not a connector of its
 * own.
 *
 * @example
 * const connector = await connectorForConfig(loaded.connector, entry.config, { connectorId: entry.id });
 */
export async function connectorForConfig(
  connector: Connector,
  config: unknown,
  options: ForConfigOptions = {},
): Promise<Connector> {
  // Anything else, a broken export included, is left to the checks of a connector as it is.
  if (typeof (connector as Partial<Connector> | null | undefined)?.forConfig !== 'function') return connector;
  const connectorId = options.connectorId ?? connector.id;
  const keyPath = options.keyPath ?? 'config';
  const parsed = parseConnectorConfig(connector, config, keyPath, connectorId);
  let made: unknown;
  try {
    made = await connector.forConfig!(
      parsed,
      options.baseDir === undefined ? {} : { baseDir: options.baseDir },
    );
  } catch (cause) {
    throw wrapCause(cause, {
      code: RUNNER_ERROR_CODES.CONFIG_INVALID,
      message: `connector "${connectorId}" (plugin ${connector.id}): ${keyPath} cannot be used`,
      details: { connectorId },
    });
  }
  const plugin = `${connector.id} (the connector its forConfig made for connector "${connectorId}")`;
  const bound = assertConnector(plugin, made);
  if (bound.forConfig !== undefined) {
    throw new OaaError(`plugin ${plugin}: the connector forConfig returns must not have forConfig itself`, {
      code: RUNNER_ERROR_CODES.PLUGIN_INVALID,
      details: { plugin: connector.id },
    });
  }
  return bound;
}
