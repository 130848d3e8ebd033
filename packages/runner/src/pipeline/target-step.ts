/** Finding or creating the provider and data source a run pushes to. */
import { ServiceError } from '@oaakit/client';
import type { Client, ProviderCreateFields } from '@oaakit/client';
import type { Connector } from '@oaakit/core';
import type { Logger } from 'pino';
import type { StoredState } from '../state/stored-state.js';
import type { TargetRef } from './run-types.js';

/** The provider and data source of a run. */
export interface PushTargets {
  provider: TargetRef;
  dataSource: TargetRef;
}

/**
 * Reuses the provider and data source with these names, or creates them (never a duplicate). A new
 * provider gets the connector's template, lifecycle-management type and icon. An icon the service
 * refuses is logged, not fatal: the data matters more than its picture.
 */
export async function ensureTargets(options: {
  client: Client;
  connector: Connector;
  provider: string;
  dataSource: string;
  signal: AbortSignal;
  logger: Logger;
}): Promise<PushTargets> {
  const { client, connector, signal, logger } = options;
  const fields: ProviderCreateFields = {};
  const lifecycle = connector.provider?.lifecycleManagementType;
  if (lifecycle !== undefined && connector.template === 'application')
    fields.external_lifecycle_management_type = lifecycle;
  const { provider, created } = await client.providers.findOrCreate(
    { name: options.provider, template: connector.template, ...fields },
    { signal },
  );
  if (created) {
    logger.info({ providerId: provider.id, provider: provider.name }, 'created provider');
    const icon = connector.provider?.iconBase64;
    if (icon !== undefined) {
      try {
        await client.icons.set({ providerId: provider.id, icon, signal });
      } catch (error) {
        signal.throwIfAborted();
        logger.warn({ providerId: provider.id, err: error }, 'the provider icon was not accepted');
      }
    }
  }
  const found = await client.dataSources.findOrCreate({
    providerId: provider.id,
    name: options.dataSource,
    signal,
  });
  if (found.created)
    logger.info(
      { dataSourceId: found.dataSource.id, dataSource: found.dataSource.name },
      'created data source',
    );
  return {
    provider: { id: provider.id, name: provider.name, created },
    dataSource: { id: found.dataSource.id, name: found.dataSource.name, created: found.created },
  };
}

/**
 * Whether the provider and data source of the last push still exist on the service. An unchanged
 * payload is pushed again when one of them was deleted, so the data comes back.
 */
export async function targetsStillExist(
  client: Client,
  state: StoredState,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const provider = await client.providers.get(state.provider.id, { signal });
    if (provider.state === 'DELETING' || provider.name !== state.provider.name) return false;
    const dataSource = await client.dataSources.get({
      providerId: state.provider.id,
      dataSourceId: state.dataSource.id,
      signal,
    });
    return dataSource.name === state.dataSource.name;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return false;
    throw error;
  }
}
