import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { jsonChunks } from '../serialize/json-chunks.js';
import { createPayloadStream } from '../serialize/payload-stream.js';
import { fixture } from '../private-test-helpers/fixtures.js';
import { validate } from './index.js';
import { validateAsRead } from './streaming.js';

const wiki = (p: any) => p.applications[0];

/** The payload with its users and grants as one-shot generators that count how often they are read. */
function streamed(p: any) {
  const reads = { users: 0, grants: 0 };
  const users = wiki(p).local_users as unknown[];
  const grants = p.identity_to_permissions as unknown[];
  wiki(p).local_users = (function* () {
    reads.users++;
    yield* users;
  })();
  p.identity_to_permissions = (function* () {
    reads.grants++;
    yield* grants;
  })();
  return reads;
}

async function text(value: unknown): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(value, { chunkSize: 64 })) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('validateAsRead', () => {
  it('checks streamed users and grants during the one read that serializes them', async () => {
    const p = fixture('application');
    const expected = structuredClone(p);
    const reads = streamed(p);
    const checked = validateAsRead('application', p);
    expect(checked.errors).toEqual([]);
    expect(checked.complete).toBe(false);
    expect(reads).toEqual({ users: 0, grants: 0 });
    expect(JSON.parse(await text(checked.value))).toEqual(expected);
    expect(checked.complete).toBe(true);
    expect(reads).toEqual({ users: 1, grants: 1 });
    expect(checked.errors).toEqual([]);
  });

  it('throws every violation before the end of the text when a streamed user or grant is invalid', async () => {
    const p = fixture('application');
    wiki(p).local_users[1].groups = ['Nobody'];
    p.identity_to_permissions[0].role_assignments[0].role = 'Owner';
    const direct = validate('application', structuredClone(p)).errors;
    streamed(p);
    const checked = validateAsRead('application', p);
    expect(checked.errors).toEqual([]);
    const chunks: Buffer[] = [];
    const error = await (async () => {
      for await (const chunk of jsonChunks(checked.value, { chunkSize: 16 })) chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations).toEqual(direct);
    expect((error as ValidationError).message).toContain(
      'applications[0].local_users[1].groups[0]: local group "Nobody" does not exist',
    );
    // What was produced is not a whole payload.
    expect(() => JSON.parse(Buffer.concat(chunks).toString('utf8'))).toThrow();
  });

  it('reports errors outside the streamed collections at once, with those of the streamed ones', () => {
    const p = fixture('application');
    p.permissions[0].permission_type = ['Read'];
    wiki(p).local_users[1].is_active = 'yes';
    const direct = validate('application', structuredClone(p)).errors;
    streamed(p);
    const checked = validateAsRead('application', p);
    expect(checked.complete).toBe(true);
    expect(checked.errors.map((e) => e.field)).toEqual([
      'permissions[0].permission_type[0]',
      'applications[0].local_users[1].is_active',
    ]);
    expect(checked.errors).toEqual(direct);
  });

  it('lists the streamed violations too when the rest is already invalid', () => {
    const p = fixture('application');
    wiki(p).local_roles[0].permissions = ['Own'];
    wiki(p).local_users[0].groups = ['Nobody'];
    const checked = validateAsRead('application', p);
    expect(checked.complete).toBe(true);
    expect(checked.errors).toEqual(validate('application', p).errors);
    expect(checked.errors).toHaveLength(2);
  });

  it('reads users before the grants that name them, whatever the key order', async () => {
    const p = fixture('application');
    const { identity_to_permissions: grants, ...rest } = p;
    const reordered = { identity_to_permissions: grants, ...rest };
    const checked = validateAsRead('application', reordered);
    const out = JSON.parse(await text(checked.value));
    expect(Object.keys(out).indexOf('applications')).toBeLessThan(
      Object.keys(out).indexOf('identity_to_permissions'),
    );
    expect(out).toEqual(p);
    expect(checked.errors).toEqual([]);
    expect(checked.complete).toBe(true);
  });

  it('finds the same violations as validate for any mix of broken users and grants', async () => {
    const breakages: ((p: any) => void)[] = [
      (p) => (wiki(p).local_users[0].groups = ['Nobody']),
      (p) => (wiki(p).local_users[1].name = 'ALICE'),
      (p) => (wiki(p).local_users[1].is_active = 'yes'),
      (p) => (wiki(p).local_users[0].custom_properties.seats = 'two'),
      (p) => (p.identity_to_permissions[0].identity = 'Zed'),
      (p) => p.identity_to_permissions.push({ ...p.identity_to_permissions[0], identity: 'alice' }),
      (p) => (p.identity_to_permissions[1].application_permissions[0].resources = ['Engineering.Specs']),
      (p) => (p.identity_to_permissions[0].role_assignments[0].application = 'Wiki'),
      (p) => (wiki(p).local_users = []),
    ];
    await fc.assert(
      fc.asyncProperty(fc.subarray(breakages), async (chosen) => {
        const p = fixture('application');
        for (const breakIt of chosen) breakIt(p);
        const direct = validate('application', structuredClone(p));
        streamed(p);
        const checked = validateAsRead('application', p);
        const thrown = checked.errors.length ? undefined : await text(checked.value).catch((e: unknown) => e);
        const errors = thrown instanceof ValidationError ? thrown.violations : checked.errors;
        expect(errors).toEqual(direct.errors);
        expect(checked.warnings).toEqual(direct.warnings);
      }),
      { numRuns: 60 },
    );
  });
});

describe('createPayloadStream with validate', () => {
  it('pushes a valid streamed payload whose generators can be read only once', async () => {
    const p = fixture('application');
    const expected = structuredClone(p);
    const reads = streamed(p);
    const { stream, validation } = createPayloadStream(p, {
      encoding: 'binary',
      validate: { template: 'application' },
    });
    const json = gunzipSync(await buffer(stream)).toString('utf8');
    expect(JSON.parse(json)).toEqual(expected);
    expect(reads).toEqual({ users: 1, grants: 1 });
    expect(validation?.complete).toBe(true);
    expect(validation?.warnings).toEqual([]);
  });

  it('throws at once when the payload apart from its users and grants is invalid', () => {
    const p = fixture('application');
    p.applications[0].tags = [{ key: 'bad key!', value: 'x' }];
    expect(() => createPayloadStream(p, { validate: { template: 'application' } })).toThrow(
      /the application payload has 1 error:\n {2}applications\[0\]\.tags\[0\]\.key/,
    );
  });

  it('fails the stream, never ending the gzip data, when a streamed user is invalid', async () => {
    const p = fixture('application');
    wiki(p).local_users[0].created_at = 'yesterday';
    streamed(p);
    const { stream } = createPayloadStream(p, { encoding: 'binary', validate: { template: 'application' } });
    const received: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => received.push(chunk));
    const error = await new Promise((resolve) => stream.on('error', resolve));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations.map((v) => v.field)).toEqual([
      'applications[0].local_users[0].created_at',
    ]);
    expect(() => gunzipSync(Buffer.concat(received))).toThrow();
  });

  it('validates other templates whole before the first byte', () => {
    const p = fixture('hris');
    p.employees[0].manager_id = 'nobody';
    expect(() => createPayloadStream(p, { validate: { template: 'hris' } })).toThrow(ValidationError);
  });
});

describe('async collections', () => {
  async function* later<T>(items: T[]): AsyncGenerator<T> {
    for (const item of items) {
      await Promise.resolve();
      yield item;
    }
  }

  it('are checked as they are read, users fetched page by page for instance', async () => {
    const p = fixture('application');
    const expected = structuredClone(p);
    wiki(p).local_users = later(wiki(p).local_users);
    p.identity_to_permissions = later(p.identity_to_permissions);
    const checked = validateAsRead('application', p);
    expect(JSON.parse(await text(checked.value))).toEqual(expected);
    expect(checked.complete).toBe(true);
    expect(checked.errors).toEqual([]);
  });

  it('fail the read before its end when an entity is invalid', async () => {
    const p = fixture('application');
    wiki(p).local_users[1].groups = ['Nobody'];
    wiki(p).local_users = later(wiki(p).local_users);
    const error = await text(validateAsRead('application', p).value).catch((e: unknown) => e);
    expect((error as ValidationError).violations.map((v) => v.field)).toEqual([
      'applications[0].local_users[1].groups[0]',
    ]);
  });

  it('cannot be read by validate, which says what to use instead', () => {
    const p = fixture('application');
    wiki(p).local_users = later(wiki(p).local_users);
    expect(validate('application', p).errors).toEqual([
      {
        field: 'applications[0].local_users',
        description: expect.stringMatching(
          /async iterable, which validate\(\) cannot read: .*validateAsRead/,
        ),
      },
    ]);
  });
});
