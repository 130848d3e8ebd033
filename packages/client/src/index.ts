// @oaakit/client: the typed HTTP client of the service interface.

export { createClient, type Client, type ClientOptions } from './client.js';
export { ServiceError, RESOURCE_EXHAUSTED, type RequestInfo } from './errors.js';
export type { ClientErrorCode } from './error-codes.js';
export { parseRetryAfter, type RetryOptions } from './retry.js';
export { type ClientLogger } from './logger.js';
export { type Paginated } from './paginate.js';
export { type ListFilter } from './filter.js';
export { type CallOptions, type ListOptions } from './resources/list-options.js';
export { type DataSourceRef } from './resources/paths.js';
export { type ProviderCreateInput, type ProvidersApi } from './resources/providers.js';
export { type DataSourcesApi } from './resources/datasources.js';
export { type PushApi, type PushResult, type PushTarget } from './resources/push.js';
export { type PartsApi, type UploadRef } from './resources/parts.js';
export { type IconTypeQuery, type IconsApi } from './resources/icons.js';
export { type ProviderTemplate, type TemplatesApi } from './resources/templates.js';
export {
  type EventExportOptions,
  type EventListOptions,
  type EventsApi,
  type ExportedEvent,
} from './resources/events.js';
export { type EmailTemplateFields, type EmailTemplatesApi } from './resources/email-templates.js';
export { type AccessRequestsApi } from './resources/access-requests.js';
export { type ConfigurationEntry, type ConfigurationsApi } from './resources/configurations.js';
export { type GraphApi, type NodeQueryOptions, type NodeQueryValue } from './resources/graph.js';
export { type PushPayloadOptions, type PushPayloadResult } from './transport/push-payload.js';
export {
  type CompressionType,
  type CustomTemplate,
  type DataSource,
  type Icon,
  type Page,
  type Provider,
  type ProviderCreateFields,
  type ProviderUpdate,
  type PushWarning,
} from './types.js';
export { clientOptionsFromEnv } from './env.js';
