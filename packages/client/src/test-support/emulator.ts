/**
 * Starts a real emulator on port 0 for one test, with a member API key for the client under test
 * and the admin controls. Not part of the build (see tsconfig.json).
 */
import { randomBytes } from 'node:crypto';
import { startEmulator } from '@oaakit/emulator';
import { createClient } from '../client.js';
import type { Client, ClientOptions } from '../client.js';
import { createEmulatorAdmin } from '../emulator-admin.js';
import type { EmulatorAdmin } from '../emulator-admin.js';

export interface TestEmulator {
  url: string;
  /** The member key the clients use; tests check it never leaks. */
  apiKey: string;
  admin: EmulatorAdmin;
  /** A client of this emulator with fast retries unless overridden. */
  client(options?: Partial<ClientOptions>): Client;
  /** How many nodes of `type` the data source's current submission holds. */
  nodes(ref: { dataSourceId: string }, type: string): Promise<number>;
  close(): Promise<void>;
}

export async function startTestEmulator(): Promise<TestEmulator> {
  const apiKey = `oaa_test_secret_${randomBytes(12).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'member' }] });
  const admin = createEmulatorAdmin({ url: emulator.url, adminKey: emulator.adminKey });
  return {
    url: emulator.url,
    apiKey,
    admin,
    client: (options = {}) =>
      createClient({ url: emulator.url, apiKey, retry: { minDelayMs: 1, maxDelayMs: 5 }, ...options }),
    nodes: async (ref, type) => (await admin.graph.stats(ref.dataSourceId)).nodes[type] ?? 0,
    close: () => emulator.close(),
  };
}
