/** The data source a push goes to, and the request it came with. */
import type { DataSourceRecord } from '../store/data-sources.js';
import type { ProviderRecord } from '../store/providers.js';

export interface PushTarget {
  provider: ProviderRecord;
  dataSource: DataSourceRecord;
  requestId: string;
}

/** The answer to a push, CSV push or multipart `complete`. */
export interface PushAnswer {
  warnings: { message: string }[];
}
