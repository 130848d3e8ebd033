import type { Api } from '../api.js';
import { paginate } from '../paginate.js';
import type { Paginated } from '../paginate.js';
import type { DataSource, Page } from '../types.js';
import { findOrCreateByName } from './find-or-create.js';
import { listQuery } from './list-options.js';
import type { CallOptions, ListOptions } from './list-options.js';
import { dataSourcePath } from './paths.js';
import type { DataSourceRef } from './paths.js';

/** Data sources of one provider: `/api/v1/providers/custom/{id}/datasources`. */
export interface DataSourcesApi {
  /** All data sources of the provider matching the options, across pages. */
  list(options: ListOptions & { providerId: string }): Paginated<DataSource>;
  /** The `value` object of one data source. */
  get(ref: DataSourceRef & CallOptions): Promise<DataSource>;
  /**
   * Creates a data source (the provider id travels in the body too, as the spec requires). A lost
   * answer is checked by name before the create is sent again.
   */
  create(input: { providerId: string; name: string } & CallOptions): Promise<DataSource>;
  /** Unbinds and deletes the data source. A retry that finds it gone counts as done. */
  delete(ref: DataSourceRef & CallOptions): Promise<void>;
  /** The data source with exactly this name under the provider; undefined when none. */
  findByName(input: { providerId: string; name: string } & CallOptions): Promise<DataSource | undefined>;
  /**
   * Reuses the data source with this name under the provider, or creates it; one created by another
   * process at the same moment is reused too.
   */
  findOrCreate(
    input: { providerId: string; name: string } & CallOptions,
  ): Promise<{ dataSource: DataSource; created: boolean }>;
}

/** Binds the data sources resource to a request function. */
export function dataSourcesApi(api: Api): DataSourcesApi {
  const self: DataSourcesApi = {
    list(options) {
      const path = dataSourcePath(options.providerId);
      return paginate((token) =>
        api.call<Page<DataSource>>({
          method: 'GET',
          path,
          query: listQuery(options, token),
          signal: options.signal,
        }),
      );
    },
    async get({ providerId, dataSourceId, signal }) {
      const res = await api.call<{ value: DataSource }>({
        method: 'GET',
        path: dataSourcePath(providerId, dataSourceId),
        signal,
      });
      return res.value;
    },
    async create(input) {
      const { providerId, name, signal } = input;
      const res = await api.call<{ value: DataSource }>(
        { method: 'POST', path: dataSourcePath(providerId), body: { id: providerId, name }, signal },
        {
          recover: async () => {
            const found = await self.findByName(input);
            return found === undefined ? undefined : { value: found };
          },
        },
      );
      return res.value;
    },
    async delete({ providerId, dataSourceId, signal }) {
      await api.call({ method: 'DELETE', path: dataSourcePath(providerId, dataSourceId), signal }, 'delete');
    },
    async findByName({ providerId, name, signal }) {
      for await (const ds of self.list({ providerId, filter: { name }, signal })) {
        if (ds.name === name) return ds;
      }
      return undefined;
    },
    async findOrCreate(input) {
      const { value, created } = await findOrCreateByName(
        () => self.findByName(input),
        () => self.create(input),
      );
      return { dataSource: value, created };
    },
  };
  return self;
}
