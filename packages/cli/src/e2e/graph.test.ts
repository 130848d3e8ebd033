/**
 * `oaa query nodes`, `oaa access` and `oaa tags` through the built binary, against an emulator started
 * by the test on port 0 holding test-fixtures/graph: an identity provider (alice in eng; bob) and an
 * application wiki whose group staff is linked to eng and holds reader (view: DataRead, passed down to
 * sub-resources) on space S1; writers (in staff, with carol) holds editor (edit: DataWrite, and
 * nested reader) on page P1 of S1.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type NodeQueryValue } from '@oaakit/client';
import type { AccessExplanation } from '@oaakit/core';
import { startEmulator, type RunningEmulator } from '@oaakit/emulator';
import { fixture, json, oaa, tempDir, type OaaResult } from '../private-test-helpers/run-oaa.js';

const apiKey = `oaa_cli_test_${randomBytes(16).toString('hex')}`;
let emulator: RunningEmulator;
let work: { dir: string; remove: () => Promise<void> };

function run(args: string[]): Promise<OaaResult> {
  return oaa(args, { env: { OAA_URL: emulator.url, OAA_API_KEY: apiKey }, cwd: work.dir });
}

const DESTS = ['--to', 'OAA.wiki.space.Resource', '--to', 'OAA.wiki.page.SubResource'];
const byName = (values: NodeQueryValue[]) =>
  Object.fromEntries(values.map((v) => [v.properties.name, [v.destination_node_count, v.permissions]]));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  work = await tempDir('oaa-cli-graph-');
  const client = createClient({ url: emulator.url, apiKey });
  for (const [name, template] of [
    ['idp', 'identity_provider'],
    ['app', 'application'],
  ] as const) {
    const { provider } = await client.providers.findOrCreate({ name, template });
    const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name });
    const payload = JSON.parse(await readFile(fixture(`graph/${name}.json`), 'utf8')) as never;
    await client.pushPayload({ providerId: provider.id, dataSourceId: dataSource.id, payload });
  }
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

describe('oaa query nodes, access and tags', { timeout: 120_000 }, () => {
  it('lists sources with the destinations they reach and their canonical permissions', async () => {
    const read = await run([
      'query',
      'nodes',
      '--type',
      'OAA.idp.IdPUser',
      ...DESTS,
      '--permission',
      'DataRead',
      '--json',
    ]);
    expect(read.code, read.stderr).toBe(0);
    // alice: eng -> staff (reader on S1: view on S1, inherited on P1).
    expect(byName(json<{ values: NodeQueryValue[] }>(read).values)).toEqual({ alice: [2, ['DataRead']] });

    const none = await run([
      'query',
      'nodes',
      '--type',
      'OAA.idp.IdPUser',
      ...DESTS,
      '--no-relation',
      '--json',
    ]);
    expect(byName(json<{ values: NodeQueryValue[] }>(none).values)).toEqual({ bob: [0, []] });

    // carol: writers holds editor on P1 (DataWrite, and DataRead through nested reader).
    const write = await run([
      'query',
      'nodes',
      '--type',
      'OAA.wiki.User',
      ...DESTS,
      '--permission',
      'datawrite',
    ]);
    expect(write.code, write.stderr).toBe(0);
    expect(write.stdout).toMatch(/^ID\s+TYPE\s+NAME\s+COUNT\s+PERMISSIONS$/m);
    expect(write.stdout).toMatch(/OAA\.wiki\.User\s+carol\s+1\s+DataRead,DataWrite/);

    const dest = await run([
      'query',
      'nodes',
      '--type',
      'OAA.wiki.User',
      '--to',
      'OAA.wiki.page.SubResource',
      '--destinations',
      '--json',
    ]);
    expect(byName(json<{ values: NodeQueryValue[] }>(dest).values)).toEqual({
      P1: [1, ['DataRead', 'DataWrite']],
    });
  });

  it('filters with --where and refuses a malformed one', async () => {
    const r = await run(['query', 'nodes', '--type', 'OAA.idp.IdPUser', '--where', 'email ^= BOB', '--json']);
    expect(json<{ values: NodeQueryValue[] }>(r).values.map((v) => v.properties.name)).toEqual(['bob']);
    const bad = await run(['query', 'nodes', '--type', 'OAA.idp.IdPUser', '--where', 'email']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain(`--where "email" is not 'property OPERATOR value'`);
    const lonely = await run(['query', 'nodes', '--type', 'OAA.idp.IdPUser', '--no-relation']);
    expect(lonely.code).toBe(64);
    expect(lonely.stderr).toContain('need --to');
    const help = await run(['query', 'nodes', '--help']);
    expect(help.stdout).toContain('EXAMPLES');
    expect(help.stdout).toContain('--permission DataWrite');
  });

  it('explains what an identity reaches and why', async () => {
    const text = await run(['access', 'alice@corp.example']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('alice (OAA.idp.IdPUser)');
    expect(text.stdout).toContain('S1 (OAA.wiki.space.Resource): DataRead');
    expect(text.stdout).toContain(
      '- member of eng (OAA.idp.IdPGroup) -> is account staff (OAA.wiki.Group) -> role reader -> permission view [DataRead]',
    );
    const asJson = await run(['access', 'carol', '--json']);
    const [carol] = json<{ values: AccessExplanation[] }>(asJson).values;
    expect(Object.fromEntries(carol!.destinations.map((d) => [d.name, d.permissions]))).toEqual({
      S1: ['DataRead'],
      P1: ['DataRead', 'DataWrite'],
    });
    const missing = await run(['access', 'nobody@corp.example']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('identity nobody@corp.example not found');
  });

  it('adds and removes tags on a node id that a query returned', async () => {
    const q = ['query', 'nodes', '--type', 'OAA.wiki.User', '--json'];
    const [carol] = json<{ values: NodeQueryValue[] }>(await run(q)).values;
    const add = await run(['tags', 'add', carol!.id, 'owner=team_a', 'reviewed', '--json']);
    expect(add.code, add.stderr).toBe(0);
    expect(json(add)).toEqual({
      node_id: carol!.id,
      tags: [{ key: 'owner', value: 'team_a' }, { key: 'reviewed' }],
    });
    expect(json<{ values: NodeQueryValue[] }>(await run(q)).values[0]!.properties.tags).toEqual([
      { key: 'owner', value: 'team_a' },
      { key: 'reviewed', value: '' },
    ]);
    const rm = await run(['tags', 'remove', carol!.id, 'owner']);
    expect(rm.stdout).toContain(`Removed tag owner from node ${carol!.id}.`);
    expect(json<{ values: NodeQueryValue[] }>(await run(q)).values[0]!.properties.tags).toEqual([
      { key: 'reviewed', value: '' },
    ]);
    const unknown = await run(['tags', 'add', 'no-such-node', 'k=v']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('node no-such-node not found');
    const badKey = await run(['tags', 'add', carol!.id, 'bad-key=v']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('tags[0].key');
  });
});
