import type { Api } from '../api.js';
import type { CallOptions } from './list-options.js';
import { PROVIDERS } from './paths.js';

/** One entry of the template list; the spec does not show its fields. */
export type ProviderTemplate = Record<string, unknown>;

/** `GET /api/v1/providers/custom/templates`, which third-party SDKs probe at start-up. */
export interface TemplatesApi {
  list(options?: CallOptions): Promise<ProviderTemplate[]>;
}

/** Binds the templates resource to a request function. */
export function templatesApi(api: Api): TemplatesApi {
  return {
    async list(options = {}) {
      const res = await api.call<{ values?: ProviderTemplate[] | null }>({
        method: 'GET',
        path: `${PROVIDERS}/templates`,
        signal: options.signal,
      });
      return res.values ?? [];
    },
  };
}
