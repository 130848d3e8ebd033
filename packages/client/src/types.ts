/**
 * Wire shapes the client reads and writes. Resource shapes come from `@oaakit/core`'s zod schemas
 * (the single definition of each shape); only the client's own generic page type lives here.
 */
import type { ProviderCreate, PushResponse } from '@oaakit/core';

export type { DataSource, Icon, Provider, ProviderUpdate, Template as CustomTemplate } from '@oaakit/core';

/** Optional request fields of a provider create, besides `name` and the template. */
export type ProviderCreateFields = Omit<ProviderCreate, 'name' | 'custom_template'>;

/** One push warning. */
export type PushWarning = NonNullable<PushResponse['warnings']>[number];

/** One page of a list endpoint. Only `has_more` decides whether another page exists. */
export interface Page<T> {
  values?: T[] | null;
  next_page_token?: string | null;
  has_more?: boolean | null;
}

/** Wire value of `compression_type` on a push, as the client sends it. */
export type CompressionType = 'NONE' | 'GZIP';
