/**
 * The __CONNECTOR_ID__ connector: reads the users and groups of the __DISPLAY_NAME__ directory into an
 * `identity_provider` payload. The runner does the rest: validation, diff, the push and the saved state.
 */
import { CONNECTOR_API_VERSION, IdentityProviderPayloadBuilder, defineConnector } from '@oaakit/core';
import type { IdentityProviderPayload } from '@oaakit/core';
import { configSchema } from './config.js';
import { parseExport } from './records.js';
import { checkSource, readSource } from './source.js';

/** The connector; the package's default export, which `oaakit.connector` in package.json points at. */
export const connector = defineConnector({
  id: '__CONNECTOR_ID__',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'identity_provider',
  description: '__DISPLAY_NAME__ directory users and groups',
  configSchema,
  secrets: [{ name: 'token', description: 'API token of __DISPLAY_NAME__, sent when `source` is a URL' }],
  check: checkSource,
  async extract(ctx): Promise<IdentityProviderPayload> {
    const data = parseExport(await readSource(ctx), ctx.config.source);
    ctx.logger.info({ users: data.users.length, groups: data.groups.length }, 'export read');

    const b = new IdentityProviderPayloadBuilder({ name: ctx.config.name, idp_type: ctx.config.idpType });
    b.setDomain({ name: data.domain });
    b.defineProperty('user', 'title', 'STRING');
    // Groups first: the builder checks every group a user names as the user is added.
    for (const g of data.groups) b.addGroup({ name: g.name, identity: g.id, is_security_group: g.security });

    ctx.progress.start('users', data.users.length);
    for (const u of data.users) {
      ctx.signal.throwIfAborted();
      b.addUser({
        name: u.login,
        identity: u.id,
        email: u.email,
        full_name: u.fullName,
        department: u.department,
        is_active: u.active,
        // A manager may come later in the export: build() checks that each one is a user.
        manager_id: u.manager,
        groups: u.groups.map((id) => ({ identity: id })),
        custom_properties: u.title === undefined ? undefined : { title: u.title },
      });
      ctx.progress.tick();
    }
    return b.build();
  },
});

export default connector;
