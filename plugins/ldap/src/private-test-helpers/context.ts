/**
 * The connector's context for tests: the runner's test kit with the config parsed by the
 * connector's schema and the bind password set.
 */
import type { IdentityProviderPayload } from '@oaakit/core';
import { testContext as kitContext, type TestContext as KitContext } from '@oaakit/runner/testing';
import { ldapConfigSchema, PASSWORD_SECRET, type LdapConfig, type LdapConfigInput } from '../config.js';
import { ldapConnector } from '../connector.js';

export type TestContext = KitContext<LdapConfig, typeof PASSWORD_SECRET>;

export function testContext(config: LdapConfigInput, password: string): TestContext {
  return kitContext({
    config: ldapConfigSchema.parse(config),
    secrets: { [PASSWORD_SECRET]: password },
  });
}

/** The payload `extract` returns, with its streamed users read into an array. */
export async function extractAll(t: TestContext): Promise<IdentityProviderPayload> {
  const payload = await ldapConnector.extract(t.ctx);
  const users: NonNullable<IdentityProviderPayload['users']> = [];
  for await (const user of payload.users as AsyncIterable<(typeof users)[number]>) users.push(user);
  return { ...(payload as IdentityProviderPayload), users };
}
