/**
 * The connector's context for tests: the runner's test kit with the config parsed by the
 * connector's schema and the password secret set.
 */
import { testContext as kitContext, type TestContext as KitContext } from '@oaakit/runner/testing';
import {
  PASSWORD_SECRET,
  postgresConfigSchema,
  type PostgresConfig,
  type PostgresConfigInput,
} from '../config.js';

export type TestContext = KitContext<PostgresConfig, typeof PASSWORD_SECRET>;

export function testContext(config: PostgresConfigInput, password: string): TestContext {
  return kitContext({
    config: postgresConfigSchema.parse(config),
    secrets: { [PASSWORD_SECRET]: password },
  });
}
