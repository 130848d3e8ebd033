import type { Api } from '../api.js';
import { buildQuery } from '../filter.js';
import type { Page } from '../types.js';
import type { CallOptions } from './list-options.js';

/** Base path of the private integration configuration. */
export const CONFIGURATIONS = '/api/private/namespaces/integrations/configurations';
/** The key naming the identity-provider user property that last-login enrichment joins on. */
export const SSO_USER_MATCHING_PROPERTY = 'idp_sso_user_matching_property';

/** One configuration entry. The spec shows only that the list contains the key when set. */
export interface ConfigurationEntry {
  key: string;
  value: unknown;
  [field: string]: unknown;
}

/** The private configuration (keys with role `admin` or `system_monitoring`). */
export interface ConfigurationsApi {
  /** The configuration entries (one page of up to 100, as the spec's calls ask). */
  list(options?: CallOptions): Promise<ConfigurationEntry[]>;
  /** The value of the matching property, or undefined when it is not set. */
  getSsoUserMatchingProperty(options?: CallOptions): Promise<string | undefined>;
  /**
   * Sets the identity-provider user property (`login`, `email`, or a custom attribute) whose value
   * local users' `identities` are matched with for last-login enrichment.
   *
   * @example
   * await client.configurations.setSsoUserMatchingProperty('email');
   */
  setSsoUserMatchingProperty(property: string, options?: CallOptions): Promise<void>;
}

/** Binds the configuration resource to a request function. */
export function configurationsApi(api: Api): ConfigurationsApi {
  const self: ConfigurationsApi = {
    async list(options = {}) {
      const res = await api.call<Page<ConfigurationEntry>>({
        method: 'GET',
        path: CONFIGURATIONS,
        query: buildQuery({ page_size: 100 }),
        signal: options.signal,
      });
      return res.values ?? [];
    },
    async getSsoUserMatchingProperty(options = {}) {
      const entry = (await self.list(options)).find((e) => e.key === SSO_USER_MATCHING_PROPERTY);
      return typeof entry?.value === 'string' ? entry.value : undefined;
    },
    async setSsoUserMatchingProperty(property, options = {}) {
      await api.call({
        method: 'PUT',
        path: `${CONFIGURATIONS}/${SSO_USER_MATCHING_PROPERTY}`,
        body: { value: property },
        signal: options.signal,
      });
    },
  };
  return self;
}
