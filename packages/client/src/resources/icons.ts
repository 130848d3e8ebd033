import type { Api } from '../api.js';
import { buildQuery } from '../filter.js';
import type { Icon } from '../types.js';
import type { CallOptions } from './list-options.js';
import { PROVIDERS, providerPath } from './paths.js';

/** Which type-level icon to look up; the service's query parameters, all optional. */
export interface IconTypeQuery extends CallOptions {
  appOrIdpType?: string;
  customSchemaType?: string;
  nodeType?: string;
}

/** Provider icons (PNG or SVG under 64 KB). */
export interface IconsApi {
  /** Sets the provider's icon; `icon` is the file's bytes, or its base64 text. */
  set(input: { providerId: string; icon: Uint8Array | string } & CallOptions): Promise<void>;
  get(providerId: string, options?: CallOptions): Promise<Icon>;
  delete(providerId: string, options?: CallOptions): Promise<void>;
  /** `GET /api/v1/providers/custom:icon`: the icon shown for a type of application, IdP or node. */
  getForType(query: IconTypeQuery): Promise<Icon>;
}

/** Binds the icons resource to a request function. */
export function iconsApi(api: Api): IconsApi {
  return {
    async set({ providerId, icon, signal }) {
      const icon_base64 =
        typeof icon === 'string'
          ? icon
          : Buffer.from(icon.buffer, icon.byteOffset, icon.byteLength).toString('base64');
      // Setting the same icon twice has the same effect, so the call is retried when safe.
      await api.call({
        method: 'POST',
        path: `${providerPath(providerId)}:icon`,
        body: { id: providerId, icon_base64 },
        signal,
      });
    },
    get(providerId, options = {}) {
      return api.call<Icon>({
        method: 'GET',
        path: `${providerPath(providerId)}:icon`,
        signal: options.signal,
      });
    },
    async delete(providerId, options = {}) {
      await api.call(
        { method: 'DELETE', path: `${providerPath(providerId)}:icon`, signal: options.signal },
        'delete',
      );
    },
    getForType(query) {
      const q = buildQuery({
        app_or_idp_type: query.appOrIdpType,
        custom_schema_type: query.customSchemaType,
        node_type: query.nodeType,
      });
      return api.call<Icon>({ method: 'GET', path: `${PROVIDERS}:icon`, query: q, signal: query.signal });
    },
  };
}
