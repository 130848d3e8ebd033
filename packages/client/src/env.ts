import { OaaError } from '@oaakit/core';
import type { ClientOptions } from './client.js';

/**
 * `url` and `apiKey` from `OAA_URL` and `OAA_API_KEY`. Throws `CONFIG_INVALID` naming the missing
 * variable (never its value).
 *
 * @example
 * const client = createClient({ ...clientOptionsFromEnv(), logger });
 */
export function clientOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): Pick<ClientOptions, 'url' | 'apiKey'> {
  const url = env['OAA_URL'];
  const apiKey = env['OAA_API_KEY'];
  const missing = [url ? undefined : 'OAA_URL', apiKey ? undefined : 'OAA_API_KEY'].filter(
    (x) => x !== undefined,
  );
  if (!url || !apiKey) {
    throw new OaaError(`missing environment variable ${missing.join(' and ')}`, {
      code: 'CONFIG_INVALID',
      details: { missing },
      hints: ['set OAA_URL to the service URL and OAA_API_KEY to an API key'],
    });
  }
  return { url, apiKey };
}
