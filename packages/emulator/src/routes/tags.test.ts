import { describe, expect, it } from 'vitest';
import {
  samplePayload,
  useEmulator,
  values,
  violations,
  type Harness,
} from '../private-test-helpers/harness.js';

const QUERY = '/api/v1/assessments/query_spec:nodes';

async function userNode(h: Harness): Promise<{ id: string; properties: Record<string, any> }> {
  const r = await h.call('POST', QUERY, { source_node_types: { nodes: [{ node_type: 'OAA.acme.User' }] } });
  return values<{ id: string; properties: Record<string, any> }>(r)[0]!;
}

async function tagEvents(h: Harness): Promise<any[]> {
  return values(await h.call('GET', '/_emulator/events?event_type=TAGGING_REQUEST_FAILED'));
}

describe('tags', () => {
  const h = useEmulator();

  it('applies and removes tags on the node ids node queries return', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    const bob = await userNode(h());
    expect(bob.properties.tags).toEqual([]);
    const add = await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: bob.id,
      tags: [{ key: 'owner', value: 'team a' }, { key: 'reviewed' }],
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({});
    expect((await userNode(h())).properties.tags).toEqual([
      { key: 'owner', value: 'team a' },
      { key: 'reviewed', value: '' },
    ]);
    // Applying a key again sets its value.
    await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: bob.id,
      tags: [{ key: 'owner', value: 'b' }],
    });
    const rm = await h().call('POST', '/api/v1/graph/svc_tags:remove', {
      node_id: bob.id,
      tag_key: 'reviewed',
    });
    expect(rm.status).toBe(200);
    expect((await userNode(h())).properties.tags).toEqual([{ key: 'owner', value: 'b' }]);
  });

  it('keeps API tags and payload tags across a re-push that drops the payload tag; only removal removes', async () => {
    const t = await h().target();
    const p = samplePayload();
    (p.applications as any[])[0].local_users[0].tags = [{ key: 'from_payload', value: 'x' }];
    await h().push(t.base, p);
    const bob = await userNode(h());
    await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: bob.id,
      tags: [{ key: 'api', value: 'y' }],
    });
    const next = samplePayload();
    (next.applications as any[])[0].local_users[0].tags = [{ key: 'second', value: 'z' }];
    expect((await h().push(t.base, next)).status).toBe(200);
    const again = await userNode(h());
    expect(again.id).toBe(bob.id);
    expect(again.properties.tags).toEqual([
      { key: 'api', value: 'y' },
      { key: 'from_payload', value: 'x' },
      { key: 'second', value: 'z' },
    ]);
    await h().call('POST', '/api/v1/graph/svc_tags:remove', { node_id: bob.id, tag_key: 'from_payload' });
    expect((await userNode(h())).properties.tags.map((x: { key: string }) => x.key)).toEqual([
      'api',
      'second',
    ]);
  });

  it('answers 404 for an unknown node and records TAGGING_REQUEST_FAILED', async () => {
    const r = await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: 'no-such-node',
      tags: [{ key: 'k', value: 'v' }],
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NotFound');
    const rm = await h().call('POST', '/api/v1/graph/svc_tags:remove', {
      node_id: 'no-such-node',
      tag_key: 'k',
    });
    expect(rm.status).toBe(404);
    const events = await tagEvents(h());
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      category: 'TAG',
      severity: 'ERROR',
      entity: 'TAG',
      entity_id: 'no-such-node',
      event_type: 'TAGGING_REQUEST_FAILED',
      error: { reason: 'NOT_FOUND', request_id: expect.any(String) },
    });
  });

  it('refuses keys and values outside the payload rules with the field named, and records the failure', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    const bob = await userNode(h());
    const bad = await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: bob.id,
      tags: [
        { key: 'has space', value: 'ok' },
        { key: 'fine', value: 'semi;colon' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(violations(bad.body).map((v) => v.field)).toEqual(['tags[0].key', 'tags[1].value']);
    const many = await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: bob.id,
      tags: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}` })),
    });
    expect(violations(many.body)).toEqual([{ field: 'tags', description: 'must hold at most 100 tags' }]);
    for (let batch = 0; batch < 10; batch++) {
      const ok = await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
        node_id: bob.id,
        tags: Array.from({ length: 100 }, (_, i) => ({ key: `k${batch}_${i}` })),
      });
      expect(ok.status).toBe(200);
    }
    const full = await h().call('POST', '/api/v1/graph/nodes/svc_tags', {
      node_id: bob.id,
      tags: [{ key: 'one_more' }],
    });
    expect(violations(full.body)).toEqual([
      { field: 'tags', description: `node ${bob.id} would hold more than 1000 tags; remove some first` },
    ]);
    const badKey = await h().call('POST', '/api/v1/graph/svc_tags:remove', {
      node_id: bob.id,
      tag_key: 'a-b',
    });
    expect(violations(badKey.body).map((v) => v.field)).toEqual(['tag_key']);
    const events = await tagEvents(h());
    expect(events).toHaveLength(4);
    expect(events[0].error.metadata['0']).toMatch(/^tags\[0\]\.key: /);
    // The refused requests applied nothing: the node holds the 1000 tags of the accepted batches.
    const tags = (await userNode(h())).properties.tags as { key: string }[];
    expect(tags).toHaveLength(1000);
    expect(tags.filter((t) => !/^k\d_\d+$/.test(t.key))).toEqual([]);
  });
});
