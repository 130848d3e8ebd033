import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyIncremental } from './apply-incremental.js';
import { buildIncrementalPayload } from './build-incremental.js';
import { diffPayloads } from '../private-test-helpers/diff-payloads.js';
import { digest } from './digest.js';
import type { JsonObject } from './json.js';

// The entity collections of each template, written out here independently of the implementation.
interface Shape {
  [field: string]: Shape;
}
const RESOURCE: Shape = {};
RESOURCE.sub_resources = RESOURCE;
const SHAPES = {
  application: {
    applications: {
      local_users: {},
      local_groups: {},
      local_roles: {},
      local_access_creds: {},
      resources: RESOURCE,
    },
    permissions: {},
    identity_to_permissions: {},
  },
  identity_provider: { domains: {}, users: {}, groups: {}, apps: {} },
} satisfies Record<string, Shape>;
type Template = keyof typeof SHAPES;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Same data, same result: sorted keys and entities, tags as a set, unused values (null, [], {}) dropped. */
function normalize(value: unknown, shape?: Shape, entity = false): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => normalize(v) ?? null);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    let n: unknown;
    if (shape?.[key] !== undefined && Array.isArray(v)) {
      const items = v.map((e) => normalize(e, shape[key], true) ?? {});
      n = items.length === 0 ? undefined : items.sort((x, y) => cmp(JSON.stringify(x), JSON.stringify(y)));
    } else if (entity && key === 'tags' && Array.isArray(v)) {
      const pairs = new Set(v.map((t: JsonObject) => JSON.stringify({ key: t.key, value: t.value ?? '' })));
      n = pairs.size === 0 ? undefined : [...pairs].sort().map((p) => JSON.parse(p) as unknown);
    } else n = normalize(v);
    if (n !== undefined) out[key] = n;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function normalizePayload(template: Template, payload: JsonObject): unknown {
  const { incremental_change: _flag, ...rest } = payload;
  return normalize(rest, SHAPES[template]) ?? {};
}

/** Deterministic shuffles from a seed (mulberry32). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The same data with every object's keys, every entity collection and every tags list reordered,
 * and unused values (null, [], {}) added where a field or collection is missing.
 */
function reorder(value: unknown, random: () => number, shape?: Shape, entity = false): unknown {
  if (Array.isArray(value)) return value.map((v) => reorder(v, random));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  const unused: JsonObject = entity ? { tags: [], custom_properties: {}, description: null } : {};
  for (const field of Object.keys(shape ?? {})) unused[field] = [];
  for (const [field, v] of Object.entries(unused)) if (!(field in value) && random() < 0.5) out[field] = v;
  for (const key of shuffle(Object.keys(value), random)) {
    const v = value[key];
    if (shape?.[key] !== undefined && Array.isArray(v))
      out[key] = shuffle(
        v.map((e) => reorder(e, random, shape[key], true)),
        random,
      );
    else if (entity && key === 'tags' && Array.isArray(v))
      out[key] = shuffle(
        v.map((t) => reorder(t, random)),
        random,
      );
    else out[key] = reorder(v, random);
  }
  return out;
}

// ---- arbitraries: small pools so that keys of two payloads often meet, with case variants ----
const lower = (v: unknown): string => String(v).toLowerCase();
const keyBy =
  (...fields: string[]) =>
  (e: JsonObject): string => {
    const field = fields.find((f) => e[f] !== undefined) ?? fields[0]!;
    return `${field}:${lower(e[field])}`;
  };
const uniq = (arb: fc.Arbitrary<JsonObject>, selector: (e: JsonObject) => string, maxLength = 3) =>
  fc.uniqueArray(arb, { selector, maxLength });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const word = fc.constantFrom('alice', 'Alice', 'bob', 'BOB', 'carol');
const text = fc.constantFrom('x', 'y', 'hello world');
const tags = fc.array(
  fc.record(
    { key: fc.constantFrom('env', 'team'), value: fc.constantFrom('prod', 'dev', '') },
    { requiredKeys: ['key'] },
  ),
  {
    maxLength: 3,
  },
);
const customProperties = fc.record(
  { department: fc.constantFrom('eng', 'ops'), level: fc.integer({ min: 0, max: 2 }) },
  { requiredKeys: [] },
);
const local = (extra: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(
    {
      name: word,
      unique_id: fc.constantFrom('u1', 'U1', 'u2'),
      id: fc.constantFrom('i1', 'I1', 'i2'),
      tags,
      custom_properties: customProperties,
      ...extra,
    },
    {
      requiredKeys: ['name'],
    },
  );
const localKey = keyBy('id', 'unique_id', 'name');

function resource(depth: number): fc.Arbitrary<JsonObject> {
  return fc.record(
    {
      name: fc.constantFrom('repo', 'Repo', 'db'),
      id: fc.constantFrom('r1', 'r2'),
      resource_type: fc.constantFrom('repo', 'branch'),
      description: nullable(text),
      tags,
      sub_resources: depth > 0 ? uniq(resource(depth - 1), keyBy('id', 'name'), 2) : fc.constant([]),
    },
    { requiredKeys: ['name', 'resource_type'] },
  );
}

const application = fc.record(
  {
    name: fc.constantFrom('app1', 'App1', 'app2'),
    application_type: fc.constantFrom('t1', 't2'),
    description: nullable(text),
    tags,
    custom_properties: customProperties,
    local_users: uniq(
      local({
        identities: fc.subarray(['a@x.com', 'b@x.com']),
        is_active: fc.boolean(),
        groups: fc.subarray(['g1', 'g2']),
      }),
      localKey,
    ),
    local_groups: uniq(local({ identities: fc.subarray(['team@x.com']) }), localKey),
    local_roles: uniq(local({ permissions: fc.subarray(['read', 'write']) }), localKey),
    local_access_creds: uniq(local({ is_active: fc.boolean() }), localKey),
    resources: uniq(resource(2), keyBy('id', 'name')),
  },
  { requiredKeys: ['name', 'application_type'] },
);

const applicationPayload: fc.Arbitrary<JsonObject> = fc.record(
  {
    custom_property_definition: fc.constantFrom(
      { applications: [{ application_type: 't1', local_user_properties: { department: 'STRING' } }] },
      {},
    ),
    applications: uniq(application, keyBy('name'), 2),
    permissions: uniq(
      fc.record({
        name: fc.constantFrom('read', 'Read', 'write'),
        permission_type: fc.subarray(['DataRead', 'DataWrite', 'NonData']),
        apply_to_sub_resources: fc.boolean(),
      }),
      keyBy('name'),
    ),
    identity_to_permissions: uniq(
      fc.record({
        identity: word,
        identity_type: fc.constantFrom('local_user', 'idp'),
        role_assignments: fc.array(
          fc.record({
            application: fc.constant('app1'),
            role: fc.constantFrom('admin', 'viewer'),
            apply_to_application: fc.boolean(),
          }),
          {
            maxLength: 2,
          },
        ),
      }),
      (e) => `${lower(e.identity_type)}:${lower(e.identity)}`,
    ),
  },
  { requiredKeys: ['applications'] },
);

const principal = (extra: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(
    {
      name: word,
      identity: fc.constantFrom('id1', 'ID1', 'id2'),
      tags,
      custom_properties: customProperties,
      ...extra,
    },
    {
      requiredKeys: ['name'],
    },
  );

const identityProviderPayload: fc.Arbitrary<JsonObject> = fc.record(
  {
    name: fc.constantFrom('idp', 'IdP'),
    idp_type: fc.constantFrom('custom', 'directory'),
    idp_description: nullable(text),
    domains: uniq(
      fc.record({ name: fc.constantFrom('example.com', 'Example.com'), tags }, { requiredKeys: ['name'] }),
      keyBy('name'),
      1,
    ),
    users: uniq(
      principal({
        email: nullable(text),
        is_active: fc.boolean(),
        groups: fc.subarray([{ identity: 'g1' }, { identity: 'g2' }]),
        manager_id: nullable(fc.constant('id2')),
      }),
      keyBy('identity', 'name'),
    ),
    groups: uniq(principal({ is_security_group: fc.boolean() }), keyBy('identity', 'name')),
    apps: uniq(
      fc.record(
        { id: fc.constantFrom('a1', 'A1', 'a2'), name: text, description: nullable(text), tags },
        { requiredKeys: ['id'] },
      ),
      keyBy('id'),
    ),
  },
  { requiredKeys: ['name', 'idp_type'] },
);

const PAYLOADS: Record<Template, fc.Arbitrary<JsonObject>> = {
  application: applicationPayload,
  identity_provider: identityProviderPayload,
};
const TEMPLATES: Template[] = ['application', 'identity_provider'];
const runs = { numRuns: 300 };

describe.each(TEMPLATES)('%s payloads', (template) => {
  const payload = PAYLOADS[template];

  it('digest ignores key order, entity order, tag order and unused values', () => {
    fc.assert(
      fc.property(payload, fc.integer(), (p, seed) => {
        expect(digest(template, reorder(p, rng(seed), SHAPES[template]) as JsonObject)).toBe(
          digest(template, p),
        );
      }),
      runs,
    );
  });

  it('digests are equal exactly when the normalized payloads are', () => {
    fc.assert(
      fc.property(payload, payload, (a, b) => {
        const same =
          JSON.stringify(normalizePayload(template, a)) === JSON.stringify(normalizePayload(template, b));
        expect(digest(template, a) === digest(template, b)).toBe(same);
      }),
      runs,
    );
  });

  it('a payload differs from itself, reordered, in nothing', () => {
    fc.assert(
      fc.property(payload, fc.integer(), (p, seed) => {
        const shuffled = reorder(p, rng(seed), SHAPES[template]) as JsonObject;
        expect(diffPayloads(template, p, p).isEmpty).toBe(true);
        expect(diffPayloads(template, p, shuffled).isEmpty).toBe(true);
      }),
      runs,
    );
  });

  it('the diff is empty exactly when the digests are equal', () => {
    fc.assert(
      fc.property(payload, payload, (a, b) => {
        expect(diffPayloads(template, a, b).isEmpty).toBe(digest(template, a) === digest(template, b));
      }),
      runs,
    );
  });

  it('applying the incremental payload from a to b gives b', () => {
    fc.assert(
      fc.property(payload, payload, fc.integer(), (a, b, seed) => {
        const update = buildIncrementalPayload(template, a, b);
        const result = applyIncremental(template, a, update);
        expect(normalizePayload(template, result)).toEqual(normalizePayload(template, b));
        expect(digest(template, result)).toBe(digest(template, b));
        // the stored copy of `a` may list its entities in another order
        const fromReordered = applyIncremental(
          template,
          reorder(a, rng(seed), SHAPES[template]) as JsonObject,
          update,
        );
        expect(digest(template, fromReordered)).toBe(digest(template, b));
      }),
      runs,
    );
  });

  it('the incremental payload between equal payloads changes nothing', () => {
    fc.assert(
      fc.property(payload, fc.integer(), (p, seed) => {
        const update = buildIncrementalPayload(
          template,
          p,
          reorder(p, rng(seed), SHAPES[template]) as JsonObject,
        );
        for (const field of Object.keys(SHAPES[template])) expect(update[field]).toEqual([]);
      }),
      runs,
    );
  });
});
