/** Random node query and tag bodies never cause a 500: each is answered 200 or a 4xx in the service's error body. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushAccessGraph } from '../private-test-helpers/access-graph.js';
import { useEmulator } from '../private-test-helpers/harness.js';

const TYPES = [
  'OAA.idp.IdPUser',
  'OAA.wiki.User',
  'OAA.wiki.Group',
  'OAA.wiki.space.Resource',
  'OAA.hr.HRISEmployee',
];
const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.double(),
  fc.constant(null),
  fc.jsonValue(),
);
const spec = fc.record(
  {
    fn: fc.oneof(
      fc.constantFrom('EQ', 'NOT_EQ', 'CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'GT', 'GTE', 'LT', 'LTE'),
      fc.string(),
    ),
    property: fc.oneof(
      fc.constantFrom('name', 'id', 'type', 'email', 'customprop_x', 'is_active'),
      fc.string(),
    ),
    value,
  },
  { requiredKeys: [] },
);
const selector = fc.oneof(
  fc.record({
    nodes: fc.array(
      fc.record(
        {
          node_type: fc.oneof(fc.constantFrom(...TYPES), fc.string()),
          node_id: fc.oneof(fc.string(), fc.constant(null)),
          condition_expression: fc.record({ specs: fc.array(spec, { maxLength: 3 }) }, { requiredKeys: [] }),
        },
        { requiredKeys: ['node_type'] },
      ),
      { maxLength: 3 },
    ),
  }),
  fc.jsonValue(),
);
const query = fc.record(
  {
    query_type: fc.oneof(fc.constantFrom('SOURCE_TO_DESTINATION', 'DESTINATION_NODES'), fc.jsonValue()),
    source_node_types: selector,
    destination_node_types: selector,
    no_relation: fc.oneof(fc.boolean(), fc.jsonValue()),
    include_nodes: fc.boolean(),
    canonical_permissions: fc.oneof(
      fc.record(
        {
          values: fc.array(fc.constantFrom('DataRead', 'DataWrite', 'Nope'), { maxLength: 3 }),
          operator: fc.constantFrom('OR', 'AND', 'XOR'),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);
const queryString = fc.oneof(
  fc.constant(''),
  fc
    .tuple(fc.oneof(fc.integer(), fc.string()), fc.string())
    .map(
      ([size, token]) =>
        `?page_size=${encodeURIComponent(String(size))}&page_token=${encodeURIComponent(token)}`,
    ),
);

describe('fuzz: node queries and tags never answer 500', () => {
  const h = useEmulator();

  it('node queries', { timeout: 120_000 }, async () => {
    await pushAccessGraph(h());
    await fc.assert(
      fc.asyncProperty(query, queryString, async (body, qs) => {
        const r = await h().call('POST', `/api/v1/assessments/query_spec:nodes${qs}`, body);
        expect([200, 400]).toContain(r.status);
        if (r.status === 400) expect(r.body.code).toBe('InvalidArgument');
      }),
      { numRuns: 150 },
    );
  });

  it('tags', { timeout: 120_000 }, async () => {
    await pushAccessGraph(h());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant('add'), fc.constant('remove')),
        fc.record(
          { node_id: fc.oneof(fc.string(), fc.jsonValue()), tags: fc.jsonValue(), tag_key: fc.jsonValue() },
          { requiredKeys: [] },
        ),
        async (op, body) => {
          const path = op === 'add' ? '/api/v1/graph/nodes/svc_tags' : '/api/v1/graph/svc_tags:remove';
          const r = await h().call('POST', path, body);
          expect([200, 400, 404]).toContain(r.status);
        },
      ),
      { numRuns: 150 },
    );
  });
});
