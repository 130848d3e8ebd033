/** What a test reads of the state a fleet keeps in Redis. */
import { Redis } from 'ioredis';
import { StateStore } from '@oaakit/runner';
import type { StoredState } from '@oaakit/runner';
import { RedisStateBackend } from '../redis-state-backend.js';

/**
 * The state a fleet on the Redis at `url` keeps for a connector (what the next run starts from).
 *
 * @example
 * expect((await readFleetState(redis.url, 'hr'))?.connectorState).toEqual({ runs: 3 });
 */
export async function readFleetState(url: string, connectorId: string): Promise<StoredState | undefined> {
  const connection = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return await new StateStore(new RedisStateBackend(connection)).read(connectorId);
  } finally {
    connection.disconnect();
  }
}
