/** Finds a provider or data source named on the command line by its name or its id. */
import { ServiceError } from '@oaakit/client';
import type { Client, DataSource, Provider } from '@oaakit/client';
import { OaaError } from '@oaakit/core';

/** Whether the service said "no such thing" (ids it cannot parse count as none). */
function isMissing(error: unknown): boolean {
  return error instanceof ServiceError && (error.status === 404 || error.status === 400);
}

/**
 * The provider with this name, else with this id. Throws `PROVIDER_NOT_FOUND` with a hint when
 * neither exists.
 */
export async function findProvider(client: Client, ref: string, signal?: AbortSignal): Promise<Provider> {
  const byName = await client.providers.findByName(ref, { signal });
  if (byName !== undefined) return byName;
  try {
    return await client.providers.get(ref, { signal });
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  throw new OaaError(`no provider named "${ref}" (and no provider with that id)`, {
    code: 'PROVIDER_NOT_FOUND',
    details: { provider: ref },
    hints: ['`oaa providers list` shows the existing providers'],
  });
}

/** The data source of the provider with this name, else with this id; `DATA_SOURCE_NOT_FOUND` otherwise. */
export async function findDataSource(
  client: Client,
  provider: Provider,
  ref: string,
  signal?: AbortSignal,
): Promise<DataSource> {
  const byName = await client.dataSources.findByName({ providerId: provider.id, name: ref, signal });
  if (byName !== undefined) return byName;
  try {
    return await client.dataSources.get({ providerId: provider.id, dataSourceId: ref, signal });
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  throw new OaaError(
    `provider "${provider.name}" has no data source named "${ref}" (and none with that id)`,
    {
      code: 'DATA_SOURCE_NOT_FOUND',
      details: { provider: provider.id, dataSource: ref },
      hints: [`\`oaa datasources list --provider "${provider.name}"\` shows its data sources`],
    },
  );
}
