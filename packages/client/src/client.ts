import { OaaError } from '@oaakit/core';
import { createApi } from './api.js';
import type { ClientLogger } from './logger.js';
import { silentLogger } from './logger.js';
import { createSend } from './request.js';
import { accessRequestsApi } from './resources/access-requests.js';
import type { AccessRequestsApi } from './resources/access-requests.js';
import { configurationsApi } from './resources/configurations.js';
import type { ConfigurationsApi } from './resources/configurations.js';
import { dataSourcesApi } from './resources/datasources.js';
import type { DataSourcesApi } from './resources/datasources.js';
import { eventsApi } from './resources/events.js';
import type { EventsApi } from './resources/events.js';
import { emailTemplatesApi } from './resources/email-templates.js';
import type { EmailTemplatesApi } from './resources/email-templates.js';
import { graphApi } from './resources/graph.js';
import type { GraphApi } from './resources/graph.js';
import { iconsApi } from './resources/icons.js';
import type { IconsApi } from './resources/icons.js';
import { partsApi } from './resources/parts.js';
import type { PartsApi } from './resources/parts.js';
import { providersApi } from './resources/providers.js';
import type { ProvidersApi } from './resources/providers.js';
import { pushApi } from './resources/push.js';
import type { PushApi } from './resources/push.js';
import { templatesApi } from './resources/templates.js';
import type { TemplatesApi } from './resources/templates.js';
import { resolveRetry } from './retry.js';
import type { RetryOptions } from './retry.js';
import { pushPayload } from './transport/push-payload.js';
import type { PushPayloadOptions, PushPayloadResult } from './transport/push-payload.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Base URL of the service, e.g. `https://tenant.example.com` or the emulator's URL. */
  url: string;
  /** API key (or OAuth2 access token), sent as a bearer credential and never logged. */
  apiKey: string;
  /** A fetch implementation; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** Retry policy, or `false` for none. */
  retry?: RetryOptions | false;
  /** Time limit of one attempt, answer body included. Default 120 s. */
  timeoutMs?: number;
  /** Default `oaakit-client`. */
  userAgent?: string;
  /** Receives request (debug) and retry (warn) records; never headers or credentials. */
  logger?: ClientLogger;
}

/** The typed client of the service interface; methods are grouped by resource. */
export interface Client {
  providers: ProvidersApi;
  dataSources: DataSourcesApi;
  push: PushApi;
  parts: PartsApi;
  icons: IconsApi;
  templates: TemplatesApi;
  /** Platform events: the filtered list and the continuous export. */
  events: EventsApi;
  /** Email notification templates (`/api/preview/notifications/email_templates`). */
  emailTemplates: EmailTemplatesApi;
  /** Access-request settings of lifecycle management. */
  accessRequests: AccessRequestsApi;
  /** The private integration configuration (last-login matching property). */
  configurations: ConfigurationsApi;
  /** Tags and node queries on the access graph. */
  graph: GraphApi;
  /**
   * Serializes, gzips and pushes a payload as a stream; one `:push` when it fits the body limit,
   * multipart otherwise.
   *
   * @example
   * const { warnings } = await client.pushPayload({ providerId, dataSourceId, payload });
   */
  pushPayload(options: PushPayloadOptions): Promise<PushPayloadResult>;
}

/**
 * Creates a client.
 *
 * @example
 * const client = createClient({ url: process.env.OAA_URL!, apiKey: process.env.OAA_API_KEY! });
 * const { provider } = await client.providers.findOrCreate({ name: 'HR', template: 'hris' });
 */
export function createClient(options: ClientOptions): Client {
  let base: URL;
  try {
    base = new URL(options.url);
  } catch (cause) {
    throw new OaaError(`not a URL: ${options.url}`, {
      code: 'CONFIG_INVALID',
      cause,
      hints: ['set the service URL, e.g. https://tenant.example.com'],
    });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new OaaError(`the service URL must be http or https: ${options.url}`, { code: 'CONFIG_INVALID' });
  }
  const logger = options.logger ?? silentLogger;
  const send = createSend({
    url: options.url,
    apiKey: options.apiKey,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 120_000,
    userAgent: options.userAgent ?? 'oaakit-client',
    logger,
  });
  const api = createApi(send, resolveRetry(options.retry), logger);
  const push = pushApi(api);
  const parts = partsApi(api);
  return {
    providers: providersApi(api),
    dataSources: dataSourcesApi(api),
    push,
    parts,
    icons: iconsApi(api),
    templates: templatesApi(api),
    events: eventsApi(api),
    emailTemplates: emailTemplatesApi(api),
    accessRequests: accessRequestsApi(api),
    configurations: configurationsApi(api),
    graph: graphApi(api),
    pushPayload: (opts) => pushPayload({ push, parts }, opts),
  };
}
