/** Whether the service accepts an API key: one cheap authenticated read. */
import { ServiceError, createClient } from '@oaakit/client';
import { OaaError } from '@oaakit/core';

/** `accepted`, or `rejected` when the service answers 401 or 403; other failures are thrown. */
export async function checkApiKey(
  url: string,
  apiKey: string,
  signal?: AbortSignal,
): Promise<'accepted' | 'rejected'> {
  const client = createClient({ url, apiKey, retry: { retries: 1 }, timeoutMs: 30_000 });
  try {
    for await (const page of client.providers.list({ pageSize: 1, signal }).pages()) {
      void page;
      break;
    }
    return 'accepted';
  } catch (error) {
    if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) return 'rejected';
    throw error;
  }
}

/** The error for a key the service refused. */
export function rejectedKey(url: string): OaaError {
  return new OaaError(`the service at ${url} refused the API key`, {
    code: 'CREDENTIALS_INVALID',
    details: { url },
    hints: [
      'check that the key is current and belongs to this tenant',
      'store a new one with `oaa auth login`',
    ],
  });
}
