/**
 * The SCIM side of the REST connector's tests: the SCIM test server of scim-app's tests (SCIMMY
 * on Express, on port 0) and its seed, reused as they are, and a dry run of a connector through
 * the runner, which gives the payload's digest.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connector } from '@oaakit/core';
import { runConnector, StateStore, type RunResult } from '@oaakit/runner';

export {
  startScimServer,
  type ScimServer,
  type SeedResource,
} from '../../../scim-app/src/private-test-helpers/scim-server.js';
export { directory, manyUsers } from '../../../scim-app/src/private-test-helpers/seed.js';

/** A dry run of `connector` (through the runner, as `oaa run --dry-run`), its payload saved to read back. */
export async function dryRun(
  connector: Connector,
  config: unknown,
  secrets: Record<string, string>,
  options: { sourceFetch?: typeof globalThis.fetch } = {},
): Promise<{ result: RunResult; payload: Record<string, unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rest-dry-run-'));
  try {
    const file = join(dir, 'payload.json');
    const result = await runConnector({
      connector,
      config,
      secrets,
      provider: 'SCIM',
      dataSource: 'SCIM (test)',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
      savePayload: file,
      ...options,
    });
    const { readFile } = await import('node:fs/promises');
    return { result, payload: JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
