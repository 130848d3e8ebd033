import { describe, expect, it } from 'vitest';
import { names, samplePayload, useEmulator, violations } from '../test-support/harness.js';

describe('incremental push', () => {
  const h = useEmulator();

  it('applies an incremental payload to the stored one and re-ingests the result', async () => {
    const t = await h().target();
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    const r = await h().push(t.base, {
      incremental_change: true,
      applications: [
        {
          name: 'acme',
          application_type: 'acme',
          local_users: [
            { name: 'carol', operation: 'add' },
            { name: 'bob', operation: 'delete' },
          ],
        },
      ],
      identity_to_permissions: [{ identity: 'bob', identity_type: 'local_user', operation: 'delete' }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const users = await h().call(
      'GET',
      `/_emulator/graph/nodes?data_source_id=${t.dataSourceId}&type=OAA.acme.User`,
    );
    expect(names(users)).toEqual(['carol']);
  });

  it('answers 400 naming the operation of an entity that cannot be changed', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    const r = await h().push(t.base, {
      incremental_change: true,
      applications: [
        { name: 'acme', application_type: 'acme', local_users: [{ name: 'dave', operation: 'modify' }] },
      ],
    });
    expect(r.status).toBe(400);
    expect(violations(r.body).map((v) => v.field)).toContain('applications[0].local_users[0].operation');
  });
});
