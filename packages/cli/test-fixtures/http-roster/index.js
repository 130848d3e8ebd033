// Test fixture of the CLI's end-to-end tests: an application whose local users are read, page by
// page, from an HTTP source with a bearer token (for oaa run --record and --replay).
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';

const configSchema = z.strictObject({
  /** Base URL of the source: `GET {url}/users?page=N` answers `{ "users": [...], "next": N+1 | null }`. */
  url: z.string(),
  /** Sent as the `x-client-id` header: an identifier a recording may be told to scrub. */
  clientId: z.string().default('http-roster'),
});

const headers = (ctx) => ({
  authorization: `Bearer ${ctx.secrets.token}`,
  'x-client-id': ctx.config.clientId,
});

export default defineConnector({
  id: 'http-roster',
  version: '0.0.1',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'CLI test fixture: a roster of local users read from an HTTP source',
  configSchema,
  secrets: [{ name: 'token', description: 'bearer token of the source' }],
  async check(ctx) {
    await ctx.http.json(`${ctx.config.url}/users?page=1`, { headers: headers(ctx) });
  },
  async extract(ctx) {
    const names = [];
    for (let page = 1; page !== null;) {
      const body = await ctx.http.json(`${ctx.config.url}/users?page=${page}`, { headers: headers(ctx) });
      names.push(...body.users);
      page = body.next;
    }
    return {
      applications: [
        {
          name: 'Roster',
          application_type: 'Roster',
          local_users: names.map((name) => ({
            name,
            identities: [`${name}@example.com`],
            groups: ['staff'],
          })),
          local_groups: [{ name: 'staff' }],
        },
      ],
      permissions: [],
      identity_to_permissions: [],
    };
  },
});
