/**
 * The test kit's emulator (`@oaakit/emulator/testing`) with what the client's tests add: a client of
 * it with fast retries, and node counts. Not part of the build (see tsconfig.json).
 */
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import { createClient } from '../client.js';
import type { Client, ClientOptions } from '../client.js';

export interface ClientTestEmulator extends TestEmulator {
  /** A client of this emulator with its member key and fast retries, unless overridden. */
  client(options?: Partial<ClientOptions>): Client;
  /** How many nodes of `type` the data source's current submission holds. */
  nodes(ref: { dataSourceId: string }, type: string): Promise<number>;
}

/** Starts the kit's emulator (member key) for one test. */
export async function startClientTestEmulator(): Promise<ClientTestEmulator> {
  const emu = await startTestEmulator();
  return {
    ...emu,
    client: (options = {}) =>
      createClient({ url: emu.url, apiKey: emu.apiKey, retry: { minDelayMs: 1, maxDelayMs: 5 }, ...options }),
    nodes: async (ref, type) => (await emu.admin.graph.stats(ref.dataSourceId)).nodes[type] ?? 0,
  };
}
