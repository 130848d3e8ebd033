import { OaaError } from '@oaakit/core';
import type { Api } from '../api.js';
import { paginate } from '../paginate.js';
import type { Paginated } from '../paginate.js';
import type { CustomTemplate, Page, Provider, ProviderCreateFields, ProviderUpdate } from '../types.js';
import { findOrCreateByName } from './find-or-create.js';
import { listQuery } from './list-options.js';
import type { CallOptions, ListOptions } from './list-options.js';
import { PROVIDERS, providerPath } from './paths.js';

/** A provider to create: `template` is sent as `custom_template`; other fields as named. */
export interface ProviderCreateInput extends ProviderCreateFields {
  name: string;
  template: CustomTemplate;
}

/** Custom providers: `/api/v1/providers/custom`. */
export interface ProvidersApi {
  /** All providers matching the options, across pages. */
  list(options?: ListOptions): Paginated<Provider>;
  get(id: string, options?: CallOptions): Promise<Provider>;
  /**
   * Creates a provider. If the answer is lost (timeout, dropped connection, 5xx), the provider is
   * looked up by name before the create is sent again, so a retry never makes a duplicate.
   */
  create(input: ProviderCreateInput, options?: CallOptions): Promise<Provider>;
  /**
   * Changes fields of a provider (`PATCH /api/v1/providers/custom/{id}`): today only `provisioning`,
   * which makes an `hris` provider the system of record for lifecycle-management policies (the
   * vendor SDK's `update_provisioning_status`). The service refuses it for other templates with a
   * 400 naming `provisioning`. Setting a value twice has the same effect, so the call is retried.
   *
   * @example
   * const hr = await client.providers.update(provider.id, { provisioning: true });
   * hr.provisioning; // true
   */
  update(id: string, changes: ProviderUpdate, options?: CallOptions): Promise<Provider>;
  /** Deletes a provider and its data sources. A retry that finds it gone (the lost answer was a success) counts as done. */
  delete(id: string, options?: CallOptions): Promise<void>;
  /** The provider with exactly this name, skipping one being deleted; undefined when none. */
  findByName(name: string, options?: CallOptions): Promise<Provider | undefined>;
  /**
   * Reuses the provider with this name, or creates it; one created by another process at the same
   * moment is reused too. Fails when the existing one has another template, because a payload of
   * one template cannot be pushed to a provider of another.
   */
  findOrCreate(
    input: ProviderCreateInput,
    options?: CallOptions,
  ): Promise<{ provider: Provider; created: boolean }>;
}

/** Binds the providers resource to a request function. */
export function providersApi(api: Api): ProvidersApi {
  const self: ProvidersApi = {
    list(options = {}) {
      return paginate((token) =>
        api.call<Page<Provider>>({
          method: 'GET',
          path: PROVIDERS,
          query: listQuery(options, token),
          signal: options.signal,
        }),
      );
    },
    async get(id, options = {}) {
      const res = await api.call<{ value: Provider }>({
        method: 'GET',
        path: providerPath(id),
        signal: options.signal,
      });
      return res.value;
    },
    async create(input, options = {}) {
      const { name, template, ...fields } = input;
      const res = await api.call<{ value: Provider }>(
        {
          method: 'POST',
          path: PROVIDERS,
          body: { name, custom_template: template, ...fields },
          signal: options.signal,
        },
        {
          recover: async () => {
            const found = await self.findByName(name, options);
            return found === undefined ? undefined : { value: found };
          },
        },
      );
      return res.value;
    },
    async update(id, changes, options = {}) {
      const res = await api.call<{ value?: Provider | null }>({
        method: 'PATCH',
        path: providerPath(id),
        body: changes,
        signal: options.signal,
      });
      // The spec does not show the answer of this call; read the provider when it is not in it.
      return res.value ?? self.get(id, options);
    },
    async delete(id, options = {}) {
      await api.call({ method: 'DELETE', path: providerPath(id), signal: options.signal }, 'delete');
    },
    async findByName(name, options = {}) {
      for await (const provider of self.list({ filter: { name }, signal: options.signal })) {
        if (provider.name === name && provider.state !== 'DELETING') return provider;
      }
      return undefined;
    },
    async findOrCreate(input, options = {}) {
      const { value: found, created } = await findOrCreateByName(
        () => self.findByName(input.name, options),
        () => self.create(input, options),
      );
      if (created) return { provider: found, created };
      if (found.custom_template != null && found.custom_template !== input.template) {
        throw new OaaError(
          `provider "${input.name}" exists with template ${found.custom_template}, not ${input.template}`,
          {
            code: 'PROVIDER_TEMPLATE_MISMATCH',
            details: { providerId: found.id, template: found.custom_template, wanted: input.template },
            hints: ['use another provider name, or the template of the existing provider'],
          },
        );
      }
      return { provider: found, created: false };
    },
  };
  return self;
}
