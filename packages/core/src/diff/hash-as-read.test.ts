import { describe, expect, it } from 'vitest';
import type { Template } from '../schemas/templates.js';
import { jsonChunks } from '../serialize/json-chunks.js';
import { validate } from '../validate/index.js';
import { fixture } from '../private-test-helpers/fixtures.js';
import { countEntities } from '../private-test-helpers/count-entities.js';
import { digest } from './digest.js';
import { entityKey, entityLabel, hashAsRead, type EntityHash } from './hash-as-read.js';

/** What a test keeps of an entity: `onEntity`'s object is filled again for the next one. */
interface Seen {
  kind: EntityHash['kind'];
  scope: string;
  key: string;
  label: string;
  own: number;
}

function keep(list: Seen[]): (e: EntityHash) => void {
  return (e) =>
    list.push({ kind: e.kind, scope: e.scope, key: entityKey(e), label: entityLabel(e), own: e.own });
}
import type { JsonObject } from './json.js';

async function readAll(value: unknown): Promise<string> {
  let text = '';
  for await (const chunk of jsonChunks(value)) text += chunk.toString('utf8');
  return text;
}

const users = [
  { name: 'Alice', identities: ['alice@example.com'], tags: [{ key: 'env', value: 'prod' }] },
  { name: 'bob', identities: ['bob@example.com'] },
];

function payload(local: Iterable<unknown> | AsyncIterable<unknown> | unknown[]): JsonObject {
  return {
    applications: [
      {
        name: 'app1',
        application_type: 'crm',
        local_users: local,
        resources: [
          { name: 'repo', resource_type: 'repo', sub_resources: [{ name: 'main', resource_type: 'branch' }] },
        ],
      },
    ],
    permissions: [{ name: 'read', permission_type: ['DataRead'] }],
  };
}

describe('hashAsRead', () => {
  it.each<[Template, string]>([
    ['application', 'application'],
    ['identity_provider', 'identity-provider'],
    ['hris', 'hris'],
  ])('gives the digest of %s payloads, the counts, and serializes the same JSON', async (template, name) => {
    const p = fixture(name as 'application');
    const seen: Seen[] = [];
    const hashed = hashAsRead(template, p, keep(seen));
    // Lists are in memory: hashed at once, and serialized as they are.
    expect(hashed.complete).toBe(true);
    expect(await readAll(hashed.value)).toBe(await readAll(p));
    expect(hashed.complete).toBe(true);
    expect(hashed.digest()).toBe(digest(template, p));
    expect(hashed.counts).toEqual(countEntities(template, p));
    expect(seen.length).toBe(Object.values(hashed.counts).reduce((a, b) => a + (b ?? 0), 0));
  });

  it('reads a one-shot generator once and hashes it like the list it yields', async () => {
    let reads = 0;
    function* once() {
      reads++;
      yield* users;
    }
    const seen: Seen[] = [];
    const hashed = hashAsRead('application', payload(once()), keep(seen));
    const text = await readAll(hashed.value);
    expect(reads).toBe(1);
    expect(JSON.parse(text)).toEqual(payload(users));
    expect(hashed.digest()).toBe(digest('application', payload(users)));
    const alice = seen.find((e) => e.kind === 'local_users' && e.label === 'Alice');
    expect(alice).toMatchObject({ key: 'name\u0000alice' });
    expect(alice?.scope).toContain('app1');
    expect(seen.filter((e) => e.kind === 'resources').map((e) => e.label)).toEqual(['repo', 'main']);
    const [repo, main] = seen.filter((e) => e.kind === 'resources');
    expect(main!.scope).not.toBe(repo!.scope);
  });

  it('hashes async collections and gives the same own hash to the same data', async () => {
    async function* pages() {
      for (const user of users) yield await Promise.resolve(user);
    }
    const a: Seen[] = [];
    const b: Seen[] = [];
    const first = hashAsRead('application', payload(pages()), keep(a));
    await readAll(first.value);
    const second = hashAsRead(
      'application',
      payload([users[1], { ...users[0], identities: ['a@x.com'] }]),
      keep(b),
    );
    await readAll(second.value);
    const own = (list: Seen[], n: string) => list.find((e) => e.label === n)?.own;
    expect(own(a, 'bob')).toBe(own(b, 'bob'));
    expect(own(a, 'Alice')).not.toBe(own(b, 'Alice'));
    // An application's own hash does not change with its users.
    expect(own(a, 'app1')).toBe(own(b, 'app1'));
    expect(first.digest()).not.toBe(second.digest());
  });

  it('hashes streamed collections nested in entities of lists (sub-resources)', async () => {
    const tree = (subs: unknown) => ({
      applications: [
        {
          name: 'app1',
          application_type: 'crm',
          resources: [{ name: 'repo', resource_type: 'repo', sub_resources: subs }],
        },
      ],
    });
    const branches = [{ name: 'main', resource_type: 'branch' }];
    const lazy = tree(new Set(branches));
    const hashed = hashAsRead('application', lazy, () => undefined);
    expect(hashed.complete).toBe(false);
    expect(JSON.parse(await readAll(hashed.value))).toEqual(tree(branches));
    expect(hashed.digest()).toBe(digest('application', tree(branches)));
    expect(hashed.counts).toMatchObject({ resources: 2 });
  });

  it('takes for no collection what the serializer writes as a record or a string, though iterable', async () => {
    const p = {
      applications: [
        {
          name: 'app1',
          application_type: 'crm',
          // An object literal with a field: a record, whatever else it has.
          local_users: {
            note: 'not users',
            *[Symbol.iterator]() {
              yield* users;
            },
          },
        },
      ],
      permissions: new String('read'),
    } as unknown as JsonObject;
    const seen: Seen[] = [];
    const hashed = hashAsRead('application', p, keep(seen));
    const text = await readAll(hashed.value);
    expect(text).toBe(await readAll(p));
    expect(JSON.parse(text)).toEqual({
      applications: [{ name: 'app1', application_type: 'crm', local_users: { note: 'not users' } }],
      permissions: 'read',
    });
    expect(seen.map((e) => e.label)).toEqual(['app1']);
    expect(hashed.counts).toMatchObject({ local_users: 0, permissions: 0 });
    expect(validate('application', p).errors.map((e) => e.field)).toEqual(
      expect.arrayContaining(['applications[0].local_users', 'permissions']),
    );
  });

  it('refuses the digest before the end, and a second read', async () => {
    const hashed = hashAsRead('application', payload(new Set(users)), () => undefined);
    expect(() => hashed.digest()).toThrow(/not been read to its end/);
    await readAll(hashed.value);
    await expect(readAll(hashed.value)).rejects.toThrow(/read twice/);
  });
});
