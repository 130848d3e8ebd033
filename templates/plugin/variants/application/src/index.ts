/**
 * The __CONNECTOR_ID__ connector: reads the users, groups and roles of __DISPLAY_NAME__ into an
 * `application` payload. The runner does the rest: validation, diff, the push and the saved state.
 */
import { ApplicationPayloadBuilder, CONNECTOR_API_VERSION, defineConnector } from '@oaakit/core';
import type { ApplicationPayload, PermissionType } from '@oaakit/core';
import { configSchema } from './config.js';
import { parseExport } from './records.js';
import type { ACCESS_LEVELS } from './records.js';
import { checkSource, readSource } from './source.js';

/** How each access level of the source maps to the service's canonical permission types. */
const PERMISSION_TYPES: Record<(typeof ACCESS_LEVELS)[number], PermissionType[]> = {
  read: ['DataRead'],
  write: ['DataRead', 'DataWrite', 'DataCreate', 'DataDelete'],
  admin: ['MetadataRead', 'MetadataWrite', 'NonData'],
};

/** The connector; the package's default export, which `oaakit.connector` in package.json points at. */
export const connector = defineConnector({
  id: '__CONNECTOR_ID__',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: '__DISPLAY_NAME__ users, groups and roles',
  configSchema,
  secrets: [{ name: 'token', description: 'API token of __DISPLAY_NAME__, sent when `source` is a URL' }],
  check: checkSource,
  async extract(ctx): Promise<ApplicationPayload> {
    const data = parseExport(await readSource(ctx), ctx.config.source);
    ctx.logger.info({ users: data.users.length, groups: data.groups.length }, 'export read');

    const b = new ApplicationPayloadBuilder();
    for (const p of data.permissions)
      b.addPermission({ name: p.name, permission_type: PERMISSION_TYPES[p.access] });
    const app = b.addApplication({
      name: ctx.config.applicationName,
      application_type: ctx.config.applicationType,
    });
    app.defineProperty('local_user', 'department', 'STRING');
    // Groups and roles first: the builder checks every reference to them as users are added.
    for (const g of data.groups) app.addLocalGroup({ name: g.name });
    for (const r of data.roles) app.addLocalRole({ name: r.name, permissions: r.permissions });

    ctx.progress.start('users', data.users.length);
    for (const u of data.users) {
      ctx.signal.throwIfAborted();
      app.addLocalUser({
        name: u.login,
        // An email links the local user to the identity-provider user with that email.
        identities: u.email === undefined ? [] : [u.email],
        groups: u.groups,
        is_active: u.active,
        last_login_at: u.lastLogin,
        custom_properties: u.department === undefined ? undefined : { department: u.department },
      });
      for (const role of u.roles) {
        b.grantRole({
          identity: u.login,
          identityType: 'local_user',
          application: ctx.config.applicationName,
          role,
          applyToApplication: true,
        });
      }
      ctx.progress.tick();
    }
    return b.build();
  },
});

export default connector;
