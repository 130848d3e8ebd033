/**
 * One real emulator for a test (or a test file), on port 0, in memory, with a fresh API key of the
 * role the test needs, its admin controls and the read-outs a user checks after a run.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '../auth/api-keys.js';
import { startEmulator } from '../server.js';
import type { StartEmulatorOptions } from '../server.js';
import { createEmulatorAdmin } from './admin.js';
import type { EmulatorAdmin } from './admin.js';

/** A running emulator for tests; `close()` it after. */
export interface TestEmulator {
  url: string;
  /** The key clients (or the `oaa` process) use; tests check it never leaks. */
  apiKey: string;
  /** The emulator's seeded admin key (the admin controls use it). */
  adminKey: string;
  admin: EmulatorAdmin;
  /** `OAA_URL` and `OAA_API_KEY` for a child process. */
  env: { OAA_URL: string; OAA_API_KEY: string };
  close(): Promise<void>;
}

/** Options of {@link startTestEmulator}. */
export interface TestEmulatorOptions extends Omit<StartEmulatorOptions, 'port' | 'apiKeys'> {
  /** The role of `apiKey`; default `member`, as a connector's key would be. */
  role?: Role;
}

/**
 * Starts the emulator on a free port with a fresh API key.
 *
 * @example
 * const emu = await startTestEmulator();
 * afterAll(() => emu.close());
 * const client = createClient({ url: emu.url, apiKey: emu.apiKey });
 */
export async function startTestEmulator(options: TestEmulatorOptions = {}): Promise<TestEmulator> {
  const { role = 'member', ...rest } = options;
  const apiKey = `oaa_test_${randomBytes(16).toString('hex')}`;
  const emulator = await startEmulator({ ...rest, port: 0, apiKeys: [{ key: apiKey, role }] });
  return {
    url: emulator.url,
    apiKey,
    adminKey: emulator.adminKey,
    admin: createEmulatorAdmin({ url: emulator.url, adminKey: emulator.adminKey }),
    env: { OAA_URL: emulator.url, OAA_API_KEY: apiKey },
    close: () => emulator.close(),
  };
}
