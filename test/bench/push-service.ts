/** The push stage against a real service (or emulator): find or create `bench`/`bench`, then push. */
import { createClient } from '@oaakit/client';
import type { ApplicationPayload } from '@oaakit/core';

export interface ServicePush {
  jsonBytes: number;
  gzipBytes: number;
  mode: string;
  warnings: number;
}

/** Pushes `payload` (gzip level 6, the client's) to provider `bench`, data source `bench` at `url`. */
export async function pushToService(
  url: string,
  apiKey: string,
  payload: ApplicationPayload,
  validateAsRead: boolean,
): Promise<ServicePush> {
  const client = createClient({ url, apiKey, timeoutMs: 600_000 });
  const { provider } = await client.providers.findOrCreate({ name: 'bench', template: 'application' });
  const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'bench' });
  const result = await client.pushPayload({
    providerId: provider.id,
    dataSourceId: dataSource.id,
    payload,
    compression: 'gzip',
    ...(validateAsRead ? { validate: { template: 'application' as const } } : {}),
  });
  return {
    jsonBytes: result.jsonBytes ?? 0,
    gzipBytes: result.compressedBytes,
    mode: result.mode,
    warnings: result.warnings.length + (result.validationWarnings?.length ?? 0),
  };
}
