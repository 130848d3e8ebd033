import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { names, samplePayload, useEmulator, values, violations } from '../private-test-helpers/harness.js';

/** A payload whose gzip is larger than one stored row (1 MiB): users with incompressible notes. */
function largePayload(): Record<string, unknown> {
  const users = Array.from({ length: 4000 }, (_, i) => ({
    name: `u${i}`,
    custom_properties: { note: randomBytes(400).toString('base64') },
  }));
  return {
    custom_property_definition: {
      applications: [{ application_type: 'acme', local_user_properties: { note: 'STRING' } }],
    },
    applications: [{ name: 'acme', application_type: 'acme', local_users: users }],
    permissions: [],
    identity_to_permissions: [],
  };
}

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

  it('keeps a stored payload of several MiB in pieces and reads it back whole (same digest, incremental push)', async () => {
    const t = await h().target();
    const payload = largePayload();
    expect((await h().push(t.base, payload, { gzip: true })).status).toBe(200);
    expect((await h().push(t.base, payload, { gzip: true })).status).toBe(200);
    const same = await h().call('GET', '/_emulator/events?event_type=DATASOURCE_PARSED_NO_CHANGE');
    expect(values(same)).toHaveLength(1);

    const r = await h().push(t.base, {
      incremental_change: true,
      applications: [
        { name: 'acme', application_type: 'acme', local_users: [{ name: 'u0', operation: 'delete' }] },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const users = await h().call(
      'GET',
      `/_emulator/graph/nodes?data_source_id=${t.dataSourceId}&type=OAA.acme.User&limit=5000`,
    );
    const kept = values<{ name: string; properties: Record<string, unknown> }>(users);
    expect(kept).toHaveLength(3999);
    const note = (payload.applications as { local_users: { custom_properties: { note: string } }[] }[])[0]!
      .local_users[1]!.custom_properties.note;
    expect(kept.find((u) => u.name === 'u1')?.properties.customprop_note).toBe(note);
  });
});
