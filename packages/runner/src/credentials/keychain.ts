/**
 * The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows) via
 * `@napi-rs/keyring`. API keys live under the service `oaakit`, one entry per target URL.
 */
import type { AsyncEntry as Entry } from '@napi-rs/keyring';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';

/** Keychain service name of the API keys `oaa auth login` stores. */
export const KEYCHAIN_SERVICE = 'oaakit';

function unavailable(action: string, service: string, account: string, cause: unknown): OaaError {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new OaaError(`cannot ${action} the OS keychain entry ${service}/${account}: ${reason}`, {
    code: RUNNER_ERROR_CODES.KEYCHAIN_UNAVAILABLE,
    cause,
    details: { service, account, reason },
    hints: [
      'on Linux a Secret Service must be running and unlocked (e.g. gnome-keyring); on a headless machine use environment variables instead',
    ],
  });
}

/** The entry `service/account`; the native module is loaded on first use, not by every command. */
async function entry(service: string, account: string): Promise<Entry> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  return new AsyncEntry(service, account);
}

/** A keychain entry's value; undefined when there is none. Throws `KEYCHAIN_UNAVAILABLE` when the keychain cannot be used. */
export async function readKeychain(service: string, account: string): Promise<string | undefined> {
  try {
    const value = await (await entry(service, account)).getPassword();
    return value ?? undefined;
  } catch (cause) {
    throw unavailable('read', service, account, cause);
  }
}

/** Stores a value in the keychain, replacing any earlier one. */
export async function writeKeychain(service: string, account: string, value: string): Promise<void> {
  try {
    await (await entry(service, account)).setPassword(value);
  } catch (cause) {
    throw unavailable('write', service, account, cause);
  }
}

/** Removes a keychain entry; false when there was none. */
export async function deleteKeychain(service: string, account: string): Promise<boolean> {
  try {
    return await (await entry(service, account)).deleteCredential();
  } catch (cause) {
    throw unavailable('delete', service, account, cause);
  }
}

/** The keychain account of a target URL: the URL without a trailing slash, so both spellings match. */
export function accountOf(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Stores the API key of a target URL in the OS keychain (what `oaa auth login` calls).
 *
 * @example
 * await saveApiKey('https://tenant.example.com', key);
 */
export async function saveApiKey(url: string, apiKey: string): Promise<void> {
  if (apiKey.trim() === '')
    throw new OaaError('the API key is empty', { code: RUNNER_ERROR_CODES.CREDENTIALS_MISSING });
  await writeKeychain(KEYCHAIN_SERVICE, accountOf(url), apiKey);
}

/** The stored API key of a target URL, or undefined (what `oaa auth status` checks). */
export function getApiKey(url: string): Promise<string | undefined> {
  return readKeychain(KEYCHAIN_SERVICE, accountOf(url));
}

/** Deletes the stored API key of a target URL; false when none was stored (`oaa auth logout`). */
export function deleteApiKey(url: string): Promise<boolean> {
  return deleteKeychain(KEYCHAIN_SERVICE, accountOf(url));
}
