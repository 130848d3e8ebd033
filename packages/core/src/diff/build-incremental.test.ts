import { describe, expect, it } from 'vitest';
import { OaaError } from '../errors.js';
import { applyIncremental } from './apply-incremental.js';
import { buildIncrementalPayload } from './build-incremental.js';
import type { JsonObject } from './json.js';

const before: JsonObject = {
  custom_property_definition: {
    applications: [{ application_type: 'CRM', local_user_properties: { dept: 'STRING' } }],
  },
  applications: [
    {
      name: 'crm',
      application_type: 'CRM',
      description: 'sales',
      local_users: [
        {
          name: 'alice',
          unique_id: 'u1',
          is_active: true,
          custom_properties: { dept: 'eng' },
          tags: [{ key: 'env', value: 'prod' }],
        },
        { name: 'bob', unique_id: 'u2', is_active: true },
      ],
      resources: [
        { name: 'repo1', resource_type: 'repo', sub_resources: [{ name: 'main', resource_type: 'branch' }] },
      ],
    },
    { name: 'wiki', application_type: 'Wiki', local_users: [{ name: 'carol' }] },
  ],
  permissions: [{ name: 'read', permission_type: ['DataRead'] }],
};

const after: JsonObject = {
  custom_property_definition: {
    applications: [{ application_type: 'CRM', local_user_properties: { dept: 'STRING' } }],
  },
  applications: [
    {
      name: 'crm',
      application_type: 'CRM',
      description: 'sales',
      local_users: [
        { name: 'alice', unique_id: 'u1', is_active: false, tags: [{ key: 'env', value: 'dev' }] },
        { name: 'dave', unique_id: 'u4' },
      ],
      resources: [
        {
          name: 'repo1',
          resource_type: 'repo',
          sub_resources: [{ name: 'main', resource_type: 'branch', description: 'default' }],
        },
      ],
    },
    { name: 'wiki', application_type: 'Wiki', description: 'docs', local_users: [{ name: 'carol' }] },
  ],
  permissions: [{ name: 'read', permission_type: ['DataRead'] }],
};

describe('buildIncrementalPayload', () => {
  it('sends only what changed, with the documented operations', () => {
    expect(buildIncrementalPayload('application', before, after)).toEqual({
      incremental_change: true,
      custom_property_definition: after.custom_property_definition,
      applications: [
        {
          // unchanged own fields: no operation, identifying fields and the changes inside
          name: 'crm',
          application_type: 'CRM',
          local_users: [
            { name: 'dave', unique_id: 'u4', operation: 'add' },
            // a dropped field is cleared with null; tags travel in their own entries
            {
              name: 'alice',
              unique_id: 'u1',
              is_active: false,
              custom_properties: null,
              operation: 'modify',
            },
            {
              name: 'alice',
              unique_id: 'u1',
              tags: [{ key: 'env', value: 'prod' }],
              operation: 'remove_tag',
            },
            { name: 'alice', unique_id: 'u1', tags: [{ key: 'env', value: 'dev' }], operation: 'add_tag' },
            { name: 'bob', unique_id: 'u2', operation: 'delete' },
          ],
          resources: [
            {
              name: 'repo1',
              resource_type: 'repo',
              sub_resources: [
                { name: 'main', resource_type: 'branch', description: 'default', operation: 'modify' },
              ],
            },
          ],
        },
        {
          name: 'wiki',
          application_type: 'Wiki',
          description: 'docs',
          operation: 'modify',
        },
      ],
      permissions: [],
      identity_to_permissions: [],
    });
  });

  it('round-trips through applyIncremental', () => {
    const result = applyIncremental(
      'application',
      before,
      buildIncrementalPayload('application', before, after),
    );
    expect(result.applications).toEqual([
      {
        name: 'crm',
        application_type: 'CRM',
        description: 'sales',
        local_users: [
          { name: 'alice', unique_id: 'u1', is_active: false, tags: [{ key: 'env', value: 'dev' }] },
          { name: 'dave', unique_id: 'u4' },
        ],
        resources: [
          {
            name: 'repo1',
            resource_type: 'repo',
            sub_resources: [{ name: 'main', resource_type: 'branch', description: 'default' }],
          },
        ],
      },
      { name: 'wiki', application_type: 'Wiki', description: 'docs', local_users: [{ name: 'carol' }] },
    ]);
  });

  it('deletes an application with its identifying fields only', () => {
    const update = buildIncrementalPayload('application', before, { ...after, applications: [] });
    expect(update.applications).toEqual([
      { name: 'crm', application_type: 'CRM', operation: 'delete' },
      { name: 'wiki', application_type: 'Wiki', operation: 'delete' },
    ]);
  });

  it('builds identity-provider updates keyed by identity, clearing a dropped header field', () => {
    const idp = {
      name: 'corp',
      idp_type: 'custom',
      idp_description: 'HQ',
      users: [{ name: 'Ann', identity: 'u1', is_active: true }],
    };
    const next = {
      name: 'corp',
      idp_type: 'custom',
      users: [{ name: 'Ann', identity: 'U1', is_active: false }],
    };
    expect(buildIncrementalPayload('identity_provider', idp, next)).toEqual({
      incremental_change: true,
      name: 'corp',
      idp_type: 'custom',
      idp_description: null,
      domains: [],
      users: [{ name: 'Ann', identity: 'U1', is_active: false, operation: 'modify' }],
      groups: [],
      apps: [],
    });
  });

  it('refuses the hris template, which the service takes as full payloads only', () => {
    const hris = { name: 'hr', hris_type: 'csv', employees: [] };
    const call = () => buildIncrementalPayload('hris', hris, hris);
    expect(call).toThrow(OaaError);
    expect(call).toThrow('incremental updates are not supported for the hris template');
    try {
      call();
    } catch (error) {
      expect((error as OaaError).code).toBe('INCREMENTAL_NOT_SUPPORTED');
      expect((error as OaaError).hints).toEqual(['push the full payload instead']);
    }
  });
});
