import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { samplePayload, useEmulator, type Harness } from './private-test-helpers/harness.js';
import { replaceAt } from './private-test-helpers/json-slots.js';

/** The sample payload with one value replaced by `replacement`. */
function mutated(pick: number, replacement: unknown): Record<string, unknown> {
  return replaceAt(samplePayload(), pick, replacement) as Record<string, unknown>;
}

const anyId = fc.oneof(fc.constant('__path__'), fc.string(), fc.uuid(), fc.integer(), fc.constant(null));
const jsonData = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.tuple(fc.nat(), fc.jsonValue()).map(([n, v]) => JSON.stringify(mutated(n, v))),
  fc
    .tuple(fc.nat(), fc.jsonValue())
    .map(([n, v]) => gzipSync(JSON.stringify(mutated(n, v))).toString('base64')),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
  fc.integer(),
);
const compression = fc.oneof(
  fc.constantFrom('NONE', 'GZIP', 'none', 'gzip', 0, 1, 2, 'zip', null),
  fc.jsonValue(),
);

function fill(
  body: Record<string, unknown>,
  t: { providerId: string; dataSourceId: string },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    out[k] = v === '__path__' ? (k === 'id' ? t.providerId : t.dataSourceId) : v;
  }
  return out;
}

async function expectAlive(h: Harness): Promise<void> {
  expect((await h.call('GET', '/api/v1/providers/custom/templates')).status).toBe(200);
}

const CSV_MAPPING = JSON.stringify({
  csv: { columns: { User: 'name', Active: 'is_active', Groups: 'groups', Since: 'created_at' } },
});

describe('fuzz: random bodies never cause a 500 or a crash', () => {
  const h = useEmulator();

  it('push', async () => {
    const t = await h().target();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            {
              id: anyId,
              data_source_id: anyId,
              json_data: jsonData,
              compression_type: compression,
              priority_push: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
        async (body) => {
          const payload =
            body !== null && typeof body === 'object' && !Array.isArray(body) ? fill(body, t) : body;
          const r = await h().call('POST', `${t.base}:push`, payload);
          expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
    await expectAlive(h());
  });

  it('push with valid envelopes around mutated payloads', async () => {
    const t = await h().target();
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.jsonValue(), fc.boolean(), async (pick, value, gz) => {
        const r = await h().push(t.base, mutated(pick, value), { gzip: gz });
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
    await expectAlive(h());
  });

  it('push_csv', async () => {
    const t = await h().target('application', { configuration_json: CSV_MAPPING });
    const csvText = fc.oneof(
      fc.string(),
      fc
        .array(
          fc.array(
            fc.oneof(fc.string(), fc.constantFrom('yes', 'no', '"', '""', ',', '\r\n', '2024-01-01')),
            { maxLength: 5 },
          ),
          { maxLength: 6 },
        )
        .map((rows) => ['User,Active,Groups,Since', ...rows.map((r) => r.join(','))].join('\n')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            {
              id: anyId,
              data_source_id: anyId,
              csv_data: fc.oneof(
                csvText.map((s) => Buffer.from(s).toString('base64')),
                fc.string(),
                fc.integer(),
              ),
              compression_type: compression,
              name: fc.jsonValue(),
              type: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
        async (body) => {
          const payload =
            body !== null && typeof body === 'object' && !Array.isArray(body) ? fill(body, t) : body;
          const r = await h().call('POST', `${t.base}:push_csv`, payload);
          expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
    await expectAlive(h());
  });

  it('parts', async () => {
    const t = await h().target();
    const started = await h().call('POST', `${t.base}:parts`, { operation: 'start' });
    const uploadId = started.body.upload_id as string;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            {
              operation: fc.oneof(fc.constantFrom('start', 'upload', 'complete'), fc.jsonValue()),
              upload_id: fc.oneof(fc.constant(uploadId), fc.uuid(), fc.string(), fc.jsonValue()),
              sequence_number: fc.oneof(fc.integer({ min: -2, max: 101 }), fc.jsonValue()),
              sequence_count: fc.oneof(fc.integer({ min: -2, max: 101 }), fc.jsonValue()),
              data: fc.oneof(jsonData, fc.jsonValue()),
            },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
        async (body) => {
          const r = await h().call('POST', `${t.base}:parts`, body);
          expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
    await expectAlive(h());
  });

  it('raw bodies that are not JSON', async () => {
    const t = await h().target();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(':push', ':push_csv', ':parts'), fc.string(), async (action, raw) => {
        const r = await h().call('POST', `${t.base}${action}`, undefined, { raw });
        expect(r.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    await expectAlive(h());
  });
});
