import { pathSegment } from '../filter.js';

/** Base path of custom providers. */
export const PROVIDERS = '/api/v1/providers/custom';

/** `/api/v1/providers/custom/{id}`. */
export function providerPath(providerId: string): string {
  return `${PROVIDERS}/${pathSegment(providerId)}`;
}

/** `/api/v1/providers/custom/{id}/datasources[/{data_source_id}]`. */
export function dataSourcePath(providerId: string, dataSourceId?: string): string {
  const list = `${providerPath(providerId)}/datasources`;
  return dataSourceId === undefined ? list : `${list}/${pathSegment(dataSourceId)}`;
}

/** Identifies one data source. */
export interface DataSourceRef {
  providerId: string;
  dataSourceId: string;
}
