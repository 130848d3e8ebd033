/**
 * The events endpoints under random input, over HTTP: a SCIM filter built from the grammar's pieces
 * (valid and broken), arbitrary strings, deep nesting, and random page sizes and tokens never get a
 * 500; a 400 always names the field. Also a property test of the export: events arriving at random
 * points while the log is paged through come out exactly once, in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmulatorClock } from '../clock.js';
import { useEmulator, violations } from '../private-test-helpers/harness.js';
import { FILTER_ATTRIBUTES } from './event-filter.js';

// Mostly well-formed pieces, so both the evaluator and the refusals are reached.
const attr = fc.oneof(
  {
    arbitrary: fc.constantFrom(...FILTER_ATTRIBUTES.filter((a) => a !== 'timestamp'), 'Category'),
    weight: 8,
  },
  { arbitrary: fc.constantFrom('persisted_at', 'TIMESTAMP', 'x', 'a.b', 'emails[type'), weight: 1 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);
const op = fc.oneof(
  { arbitrary: fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'EQ', 'Ge'), weight: 9 },
  { arbitrary: fc.constantFrom('xx', ''), weight: 1 },
);
const value = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)), weight: 8 },
  { arbitrary: fc.constantFrom('true', 'null', '42', '"', '"\\"', '"a\\u00'), weight: 1 },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
);
const timeTerm = fc
  .tuple(
    fc.constantFrom('timestamp', 'TimeStamp'),
    fc.constantFrom('ge', 'gt', 'lt', 'le', 'eq'),
    fc.oneof(
      fc.date({
        min: new Date('2026-04-01T00:00:00Z'),
        max: new Date('2026-07-01T00:00:00Z'),
        noInvalidDate: true,
      }),
      fc.date({ noInvalidDate: true }),
    ),
  )
  .map(([a, o, d]) => `${a} ${o} "${d.toISOString()}"`);
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(attr, op, value).map(([a, o, v]) => `${a} ${o} ${v}`),
    timeTerm,
    attr.map((a) => `${a} pr`),
    fc
      .tuple(tie('e'), fc.constantFrom('and', 'or', 'AND', 'Or', 'nand'), tie('e'))
      .map(([l, o, r]) => `${l} ${o} ${r}`),
    tie('e').map((e) => `not (${e})`),
    tie('e').map((e) => `(${e})`),
    fc.tuple(attr, tie('e')).map(([a, e]) => `${a}[${e}]`),
  ),
})).e;
const filterText = fc.oneof(
  { arbitrary: expr, weight: 6 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  {
    arbitrary: fc.nat({ max: 1000 }).map((n) => '('.repeat(n) + 'name eq "a"' + ')'.repeat(n)),
    weight: 1,
  },
  {
    arbitrary: fc.nat({ max: 250 }).map((n) =>
      Array(n + 1)
        .fill('name eq "a"')
        .join(' and '),
    ),
    weight: 1,
  },
);
const pageSize = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.integer({ min: 1, max: 10_000 }).map(String), weight: 3 },
  {
    arbitrary: fc.oneof(fc.integer({ min: -5, max: 20_000 }).map(String), fc.string({ maxLength: 5 })),
    weight: 1,
  },
);
const pageToken = fc.oneof(
  { arbitrary: fc.constant(null), weight: 6 },
  { arbitrary: fc.oneof(fc.string({ maxLength: 20 }), fc.base64String({ maxLength: 40 })), weight: 1 },
);

describe('events endpoints under random input', () => {
  const clock = new EmulatorClock({ start: '2026-06-01T00:00:00Z', frozen: true });
  const h = useEmulator({ clock });

  it('never answer 500 to a filter, page size or token; a 400 names its field', async () => {
    await h().target();
    const statuses = { ok: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        filterText,
        pageSize,
        pageToken,
        fc.constantFrom('/api/preview/events', '/api/v1/events/export'),
        async (filter, pageSize, token, path) => {
          const params = new URLSearchParams({ filter });
          if (pageSize !== null) params.set('page_size', pageSize);
          if (token !== null) params.set('page_token', token);
          const r = await h().call('GET', `${path}?${params.toString()}`);
          expect(r.status, `${path} ${params.toString().slice(0, 300)}`).not.toBe(500);
          expect([200, 400]).toContain(r.status);
          statuses[r.status === 200 ? 'ok' : 'refused']++;
          if (r.status === 400)
            expect(['filter', 'filter.start_time', 'page_size', 'page_token']).toContain(
              violations(r.body)[0]?.field,
            );
        },
      ),
      { numRuns: 300 },
    );
    // The generator reaches both the evaluator and the refusals.
    expect(statuses.ok).toBeGreaterThan(10);
    expect(statuses.refused).toBeGreaterThan(10);
  }, 120_000);
});

describe('export property: every event exactly once', () => {
  const clock = new EmulatorClock({ start: '2026-06-01T00:00:00Z', frozen: true });
  const h = useEmulator({ clock });

  it('random arrivals interleaved with paging yield every event once, in order', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('arrive' as const),
              n: fc.integer({ min: 1, max: 4 }),
              back: fc.boolean(),
            }),
            fc.record({ kind: fc.constant('page' as const), size: fc.integer({ min: 1, max: 5 }) }),
          ),
          { maxLength: 25 },
        ),
        async (steps) => {
          run++;
          // Events before the read starts belong to the log only when persisted at or after `since`.
          clock.set(`2026-06-0${1 + (run % 5)}T00:00:00Z`);
          const since = clock.iso();
          const p = await h().provider(`p${run}`);
          const expected: string[] = [];
          const made = async (back: boolean): Promise<void> => {
            if (back)
              clock.advance(-1000); // a clock set back: times go backwards, the log does not
            else clock.advance(1000);
            const ds = await h().dataSource(p.id, `ds${run}-${expected.length}`);
            expected.push(ds.id);
          };
          await made(false);
          const first = await h().call(
            'GET',
            `/api/v1/events/export?${new URLSearchParams({ filter: `persisted_at GE "${since}"`, page_size: '2' }).toString()}`,
          );
          expect(first.status).toBe(200);
          const got: string[] = first.body.events
            .filter((e: { provider_id: string }) => e.provider_id === p.id)
            .map((e: { entity_id: string }) => e.entity_id);
          let token: string = first.body.next_page_token;
          for (const step of steps) {
            if (step.kind === 'arrive') for (let i = 0; i < step.n; i++) await made(step.back);
            else {
              const r = await h().call(
                'GET',
                `/api/v1/events/export?page_token=${encodeURIComponent(token)}&page_size=${step.size}`,
              );
              expect(r.status).toBe(200);
              got.push(
                ...r.body.events
                  .filter((e: { provider_id: string }) => e.provider_id === p.id)
                  .map((e: { entity_id: string }) => e.entity_id),
              );
              token = r.body.next_page_token;
            }
          }
          // Drain.
          for (;;) {
            const r = await h().call(
              'GET',
              `/api/v1/events/export?page_token=${encodeURIComponent(token)}&page_size=3`,
            );
            const ids = r.body.events
              .filter((e: { provider_id: string }) => e.provider_id === p.id)
              .map((e: { entity_id: string }) => e.entity_id);
            got.push(...ids);
            token = r.body.next_page_token;
            if (r.body.events.length === 0) break;
          }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
