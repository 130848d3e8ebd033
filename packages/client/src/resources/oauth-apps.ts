/**
 * OAuth2 app management, with an admin key. The service manages apps in its administration interface
 * (the spec shows no API); these methods call the emulator's JSON API under `/_emulator/oauth_apps`.
 */
import type { OAuthApp, OAuthAppCreate } from '@oaakit/core';
import type { Api } from '../api.js';
import { pathSegment } from '../filter.js';
import type { CallOptions } from './list-options.js';

const BASE = '/_emulator/oauth_apps';

/** A new client secret: the only time it is shown. */
export interface NewClientSecret {
  secret_id: string;
  client_secret: string;
}

/** `/_emulator/oauth_apps`. */
export interface OAuthAppsApi {
  /** Creates an app; the answer carries its first client secret, shown this once. */
  create(input: OAuthAppCreate, options?: CallOptions): Promise<OAuthApp & NewClientSecret>;
  list(options?: CallOptions): Promise<OAuthApp[]>;
  get(clientId: string, options?: CallOptions): Promise<OAuthApp>;
  /** Adds a client secret (at most 2 per app), for rotation. */
  addSecret(clientId: string, options?: CallOptions): Promise<NewClientSecret>;
  deleteSecret(clientId: string, secretId: string, options?: CallOptions): Promise<void>;
  /** Revokes the app: every token it holds fails at its next use. */
  revoke(clientId: string, options?: CallOptions): Promise<OAuthApp>;
  reinstate(clientId: string, options?: CallOptions): Promise<OAuthApp>;
  /** Deletes the app with its secrets and tokens. */
  delete(clientId: string, options?: CallOptions): Promise<void>;
}

/** Binds the OAuth2 app resource to a request function. */
export function oauthAppsApi(api: Api): OAuthAppsApi {
  const app = (clientId: string): string => `${BASE}/${pathSegment(clientId)}`;
  return {
    // Creating twice makes two apps with secrets: sent once.
    create: async (input, options = {}) =>
      (
        await api.call<{ value: OAuthApp & NewClientSecret }>(
          { method: 'POST', path: BASE, body: input, signal: options.signal },
          'never',
        )
      ).value,
    list: async (options = {}) =>
      (await api.call<{ values?: OAuthApp[] }>({ method: 'GET', path: BASE, signal: options.signal }))
        .values ?? [],
    get: async (clientId, options = {}) =>
      (await api.call<{ value: OAuthApp }>({ method: 'GET', path: app(clientId), signal: options.signal }))
        .value,
    addSecret: async (clientId, options = {}) =>
      (
        await api.call<{ value: NewClientSecret }>(
          { method: 'POST', path: `${app(clientId)}/secrets`, body: {}, signal: options.signal },
          'never',
        )
      ).value,
    deleteSecret: async (clientId, secretId, options = {}) => {
      await api.call(
        {
          method: 'DELETE',
          path: `${app(clientId)}/secrets/${pathSegment(secretId)}`,
          signal: options.signal,
        },
        'delete',
      );
    },
    revoke: async (clientId, options = {}) =>
      (
        await api.call<{ value: OAuthApp }>({
          method: 'POST',
          path: `${app(clientId)}:revoke`,
          body: {},
          signal: options.signal,
        })
      ).value,
    reinstate: async (clientId, options = {}) =>
      (
        await api.call<{ value: OAuthApp }>({
          method: 'POST',
          path: `${app(clientId)}:reinstate`,
          body: {},
          signal: options.signal,
        })
      ).value,
    delete: async (clientId, options = {}) => {
      await api.call({ method: 'DELETE', path: app(clientId), signal: options.signal }, 'delete');
    },
  };
}
