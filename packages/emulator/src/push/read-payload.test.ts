/**
 * The streamed read gives the same payload as `JSON.parse` of the whole text, however the bytes are
 * cut into pieces (escapes, multi-byte characters and keys split across pieces), and refuses the
 * texts `JSON.parse` refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { materialize, readPayload } from './read-payload.js';
import { cut } from '../private-test-helpers/cut-bytes.js';
import { storedGzipOf } from './stored-gzip.js';

async function read(pieces: Buffer[]): Promise<unknown> {
  const r = await readPayload(pieces, {
    template: 'application',
    field: 'json_data',
    gzip: () => storedGzipOf([]),
  });
  try {
    return materialize(r.payload);
  } finally {
    r.close();
  }
}

const text = fc.string({
  unit: fc.constantFrom('a', '"', '\\', 'é', '😀', '[', ']', '{', '}', ',', ':', ' ', '\n'),
});
const user = fc.record({ name: text, identities: fc.array(text, { maxLength: 3 }) });
const payload = fc.record({
  applications: fc.array(
    fc.record({
      name: text,
      local_users: fc.array(user, { maxLength: 5 }),
      local_groups: fc.array(user, { maxLength: 2 }),
    }),
    { maxLength: 3 },
  ),
  identity_to_permissions: fc.array(fc.record({ identity: text, extra: fc.jsonValue({ maxDepth: 3 }) }), {
    maxLength: 5,
  }),
  other: fc.jsonValue({ maxDepth: 3 }),
});

describe('readPayload', () => {
  it('reads what JSON.parse reads, in any pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        payload,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        async (p, at, pretty) => {
          const bytes = Buffer.from(pretty ? JSON.stringify(p, null, 2) : JSON.stringify(p));
          expect(await read(cut(bytes, at))).toEqual(JSON.parse(bytes.toString()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses what JSON.parse refuses: a byte dropped or changed anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        payload,
        fc.nat(),
        fc.constantFrom('', ',', ']', '}', '"', '\\'),
        async (p, n, sub) => {
          const good = JSON.stringify(p);
          const i = n % good.length;
          const bad = good.slice(0, i) + sub + good.slice(i + 1);
          let valid = true;
          try {
            JSON.parse(bad);
          } catch {
            valid = false;
          }
          const outcome = await read([Buffer.from(bad)]).then(
            () => true,
            (err: unknown) => {
              expect(err).toBeInstanceOf(ApiError);
              return false;
            },
          );
          if (!valid) expect(outcome).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a spooled array, read back in batches, in order', async () => {
    const users = Array.from({ length: 5000 }, (_, i) => ({ name: `user${i}`, note: 'x'.repeat(i % 300) }));
    const bytes = Buffer.from(JSON.stringify({ applications: [{ name: 'a', local_users: users }] }));
    const got = (await read(cut(bytes, [7, 1000, 65_536, 300_001]))) as {
      applications: { local_users: unknown[] }[];
    };
    expect(got.applications[0]!.local_users).toEqual(users);
  });
});
