import type { AccessRequestSettings } from '@oaakit/core';
import type { Api } from '../api.js';
import type { CallOptions } from './list-options.js';

/** Path of the access-request settings (a private endpoint). */
export const ACCESS_REQUEST_SETTINGS = '/api/private/lifecycle_management/access_requests/settings';
/** Where the emulator shows the current settings; the service has no read endpoint. */
export const EMULATOR_ACCESS_REQUEST_SETTINGS = '/_emulator/access_request_settings';

/** Access-request settings of lifecycle management. */
export interface AccessRequestsApi {
  /**
   * `PATCH`es the settings: only the fields given change (the emulator merges objects field by
   * field, replaces lists whole, and clears a field sent as `null`). Answers the settings the
   * service reports after the change (the emulator: all of them).
   *
   * @example
   * await client.accessRequests.updateSettings({ enabled: true, deny_requesters: ['x@example.com'] });
   */
  updateSettings(patch: AccessRequestSettings, options?: CallOptions): Promise<AccessRequestSettings>;
  /**
   * The current settings. The service shows no read endpoint: this reads the emulator's
   * `/_emulator/access_request_settings` and needs an admin key of the emulator.
   */
  getSettings(options?: CallOptions): Promise<AccessRequestSettings>;
}

/** Binds the access-request resource to a request function. */
export function accessRequestsApi(api: Api): AccessRequestsApi {
  return {
    async updateSettings(patch, options = {}) {
      // The same patch applied twice has the same result, so it is retried when safe.
      const res = await api.call<{ value?: AccessRequestSettings | null }>({
        method: 'PATCH',
        path: ACCESS_REQUEST_SETTINGS,
        body: patch,
        signal: options.signal,
      });
      return res.value ?? {};
    },
    async getSettings(options = {}) {
      const res = await api.call<{ value?: AccessRequestSettings | null }>({
        method: 'GET',
        path: EMULATOR_ACCESS_REQUEST_SETTINGS,
        signal: options.signal,
      });
      return res.value ?? {};
    },
  };
}
