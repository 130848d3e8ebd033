import { validate, type Application, type ApplicationPayload, type LocalUser } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from '@oaakit/core';
import scimAppConnector from './index.js';
import { testContext } from './private-test-helpers/context.js';
import { startScimServer, type ScimServer } from './private-test-helpers/scim-server.js';
import { directory } from './private-test-helpers/seed.js';

const TOKEN = 'tok-3f9a-secret';
let server: ScimServer;

beforeEach(async () => {
  server = await startScimServer({ ...directory(), auth: { type: 'bearer', token: TOKEN } });
});
afterEach(async () => {
  await server.close();
});

async function extract(
  extra: Record<string, unknown> = {},
): Promise<{ payload: ApplicationPayload; app: Application; t: ReturnType<typeof testContext> }> {
  const t = testContext(
    {
      baseUrl: server.baseUrl,
      applicationName: 'Wiki',
      applicationType: 'WikiApp',
      auth: { type: 'bearer' },
      ...extra,
    },
    TOKEN,
  );
  const payload = (await scimAppConnector.extract(t.ctx)) as ApplicationPayload;
  return { payload, app: payload.applications[0]!, t };
}

const user = (app: Application, name: string): LocalUser => app.local_users!.find((u) => u.name === name)!;

describe('scim-app connector against SCIMMY', () => {
  it('declares itself as a SCIM-provisioned application connector', () => {
    expect(scimAppConnector.template).toBe('application');
    expect(scimAppConnector.provider?.lifecycleManagementType).toBe('SCIM');
    expect(scimAppConnector.secrets?.map((s) => s.name)).toEqual(['credential']);
    // The runner publishes the config as JSON Schema.
    expect(z.toJSONSchema(scimAppConnector.configSchema)).toMatchObject({
      required: expect.arrayContaining(['baseUrl', 'auth']),
    });
  });

  it('produces a payload without validation errors', async () => {
    const { payload } = await extract();
    const { errors, warnings } = validate('application', payload);
    expect(errors).toEqual([]);
    // SCIM roles carry no permissions, which the service reports as a warning per role.
    expect(warnings.map((w) => w.description)).toEqual([
      expect.stringMatching(/Role is missing permission/),
      expect.stringMatching(/Role is missing permission/),
    ]);
  });

  it('maps users: identities primary first, activity, creation time and custom properties', async () => {
    const { app, payload } = await extract();
    expect(app).toMatchObject({ name: 'Wiki', application_type: 'WikiApp' });
    expect(app.local_users!.map((u) => u.name)).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(user(app, 'alice')).toEqual({
      name: 'alice',
      unique_id: 'u-alice',
      identities: ['alice@example.com', 'alice@home.example'],
      groups: ['Engineering'],
      is_active: true,
      created_at: '2023-04-05T06:07:08.000Z',
      custom_properties: {
        display_name: 'Alice Liddell',
        employee_number: 'E001',
        department: 'Engineering',
      },
    });
    expect(user(app, 'bob').custom_properties).toEqual({
      display_name: 'Bob Builder',
      employee_number: 'E002',
      department: 'Engineering',
      manager: 'alice',
    });
    expect(user(app, 'dave')).toEqual({
      name: 'dave',
      unique_id: 'u-dave',
      identities: ['dave@example.com'],
      is_active: false,
    });
    expect(payload.custom_property_definition?.applications?.[0]?.local_user_properties).toEqual({
      display_name: 'STRING',
      employee_number: 'STRING',
      department: 'STRING',
      manager: 'STRING',
    });
  });

  it('keeps a user whose optional attributes the server omits', async () => {
    const { app } = await extract();
    expect(user(app, 'carol')).toEqual({ name: 'carol', unique_id: 'u-carol', groups: ['Backend'] });
  });

  it('maps groups, with the nested group under its parent', async () => {
    const { app } = await extract();
    expect(app.local_groups).toEqual([
      { name: 'Engineering', unique_id: 'g-eng' },
      { name: 'Backend', unique_id: 'g-backend', groups: ['Engineering'] },
      { name: 'Auditors', unique_id: 'g-auditors' },
    ]);
    expect(user(app, 'bob').groups).toEqual(['Engineering']);
  });

  it('maps roles to local roles assigned to the user, and entitlements to permissions granted directly', async () => {
    const { app, payload } = await extract();
    expect(app.local_roles).toEqual([{ name: 'Admin' }, { name: 'Developer' }]);
    expect(payload.permissions).toEqual([
      { name: 'repo:write', permission_type: ['Uncategorized'], application_type: ['WikiApp'] },
      { name: 'repo:read', permission_type: ['Uncategorized'], application_type: ['WikiApp'] },
    ]);
    const grants = Object.fromEntries(payload.identity_to_permissions!.map((g) => [g.identity, g]));
    expect(grants.alice).toEqual({
      identity: 'alice',
      identity_type: 'local_user',
      role_assignments: [{ application: 'Wiki', role: 'Admin', apply_to_application: true }],
      application_permissions: [
        { application: 'Wiki', permission: 'repo:write', apply_to_application: true },
        { application: 'Wiki', permission: 'repo:read', apply_to_application: true },
      ],
    });
    expect(grants.bob?.role_assignments).toEqual([
      { application: 'Wiki', role: 'Developer', apply_to_application: true },
    ]);
    expect(grants.carol).toBeUndefined();
  });

  it('uses the configured permission types for entitlements and can skip groups', async () => {
    const { app, payload } = await extract({
      entitlementPermissionTypes: ['DataRead', 'DataWrite'],
      includeGroups: false,
    });
    expect(payload.permissions?.[0]?.permission_type).toEqual(['DataRead', 'DataWrite']);
    expect(app.local_groups).toBeUndefined();
    expect(server.requests.some((r) => r.path.endsWith('/Groups'))).toBe(false);
  });

  it('reports progress per phase with the totals the server gives', async () => {
    const { t } = await extract();
    expect(t.progress).toEqual([
      ['start', 'users', 4],
      ['tick', 4],
      ['start', 'groups', 3],
      ['tick', 3],
    ]);
  });

  it('passes the check against a reachable server with valid credentials', async () => {
    const t = testContext(
      {
        baseUrl: `${server.baseUrl}/`,
        applicationName: 'Wiki',
        applicationType: 'WikiApp',
        auth: { type: 'bearer' },
      },
      TOKEN,
    );
    await expect(scimAppConnector.check!(t.ctx)).resolves.toBeUndefined();
    expect(server.requests.map((r) => [r.path, r.query])).toEqual([
      ['/scim/v2/Users', { startIndex: '1', count: '1' }],
    ]);
  });

  it('stops when the run is cancelled', async () => {
    const t = testContext(
      {
        baseUrl: server.baseUrl,
        applicationName: 'Wiki',
        applicationType: 'WikiApp',
        auth: { type: 'bearer' },
      },
      TOKEN,
    );
    t.controller.abort();
    await expect(scimAppConnector.extract(t.ctx)).rejects.toThrow(/abort/i);
    expect(server.requests).toEqual([]);
  });
});
