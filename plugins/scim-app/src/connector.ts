/** The SCIM application connector: any SCIM 2.0 service (RFC 7643, RFC 7644) -> `application` payload. */
import {
  CONNECTOR_API_VERSION,
  defineConnector,
  type ApplicationPayload,
  type ConnectorContext,
} from '@oaakit/core';
import { buildPayload } from './build-payload.js';
import { CREDENTIAL_SECRET, scimAppConfigSchema, type ScimAppConfig } from './config.js';
import { createScimReader } from './scim-http.js';
import { listResources } from './scim-pages.js';
import { readGroup, readUser, type ScimGroup, type ScimUser } from './scim-resources.js';

type Ctx = ConnectorContext<ScimAppConfig, typeof CREDENTIAL_SECRET>;

async function readAll<T extends { id: string }>(
  ctx: Ctx,
  path: string,
  phase: string,
  read: (raw: unknown) => T,
): Promise<Map<string, T>> {
  const reader = createScimReader(ctx);
  const out = new Map<string, T>();
  const pages = listResources({
    reader,
    path,
    pageSize: ctx.config.pageSize,
    signal: ctx.signal,
    progress: ctx.progress,
    phase,
  });
  for await (const page of pages) {
    for (const raw of page) {
      const item = read(raw);
      out.set(item.id, item);
    }
  }
  return out;
}

/**
 * Reads every User and Group of a SCIM 2.0 service into one application: users become local users
 * (emails as identities), groups local groups (nested groups as parents), roles local roles and
 * entitlements permissions granted to the user directly. See the package README for the mapping.
 *
 * @example
 * // oaa config
 * { "connector": "scim-app", "config": { "baseUrl": "https://app.example.com/scim/v2",
 *   "applicationName": "Wiki", "applicationType": "Wiki", "auth": { "type": "bearer" } } }
 * // secret "credential": the bearer token
 */
export const scimAppConnector = defineConnector({
  id: 'scim-app',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'Any SCIM 2.0 service (users, groups, roles, entitlements) as an application',
  configSchema: scimAppConfigSchema,
  secrets: [
    {
      name: CREDENTIAL_SECRET,
      description: 'bearer token of the SCIM service, or the password for basic auth',
    },
  ],
  provider: { lifecycleManagementType: 'SCIM' },

  async check(ctx) {
    // One user is enough to prove the URL, the credentials and the ListResponse shape.
    const reader = createScimReader(ctx);
    const pages = listResources({
      reader,
      path: '/Users',
      pageSize: 1,
      signal: ctx.signal,
      progress: { start() {}, tick() {} },
      phase: 'check',
    });
    await pages.next();
    await pages.return();
  },

  async extract(ctx): Promise<ApplicationPayload> {
    const users = await readAll<ScimUser>(ctx, '/Users', 'users', readUser);
    const groups = ctx.config.includeGroups
      ? await readAll<ScimGroup>(ctx, '/Groups', 'groups', readGroup)
      : new Map<string, ScimGroup>();
    ctx.signal.throwIfAborted();
    ctx.logger.info({ users: users.size, groups: groups.size }, 'read the SCIM service');
    return buildPayload({
      applicationName: ctx.config.applicationName,
      applicationType: ctx.config.applicationType,
      entitlementPermissionTypes: ctx.config.entitlementPermissionTypes,
      users,
      groups,
      logger: ctx.logger,
    });
  },
});
