/**
 * The SCIM connector's context for tests: the test kit's (`@oaakit/runner/testing`, the runner's own
 * `ctx.http`) with the config parsed by the connector's schema and the credential secret set.
 */
import { testContext as kitContext, type TestContext as KitContext } from '@oaakit/runner/testing';
import {
  CREDENTIAL_SECRET,
  scimAppConfigSchema,
  type ScimAppConfig,
  type ScimAppConfigInput,
} from '../config.js';

export type TestContext = KitContext<ScimAppConfig, typeof CREDENTIAL_SECRET>;

/** `config` is parsed by the connector's schema, as the runner does with the config file. */
export function testContext(config: ScimAppConfigInput, credential: string): TestContext {
  return kitContext({
    config: scimAppConfigSchema.parse(config),
    secrets: { [CREDENTIAL_SECRET]: credential },
  });
}

/** The waits `ctx.http` made before retrying, in milliseconds (it logs each one). */
export function retryWaits(t: TestContext): unknown[] {
  return t.logs
    .filter(([, msg]) => msg === 'retrying source request')
    .map(([, , obj]) => (obj as { delayMs?: unknown }).delayMs);
}
