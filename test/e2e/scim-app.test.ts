/**
 * The SCIM app plugin through the built `oaa run`: a real SCIM 2.0 server (SCIMMY) with seeded users
 * and groups, its bearer token handed over as the secret reference `env:SCIM_TOKEN`, pushed into an
 * emulator started here. The graph then holds the users' roles, permissions and group memberships,
 * and the provider is marked as SCIM-provisioned.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import type { RunOutput } from '@oaakit/cli';
import { json, oaa, tempDir } from '../../packages/cli/src/private-test-helpers/run-oaa.js';
import type { OaaResult } from '../../packages/cli/src/private-test-helpers/run-oaa.js';
import { startScimServer } from '../../plugins/scim-app/src/private-test-helpers/scim-server.js';
import type { ScimServer } from '../../plugins/scim-app/src/private-test-helpers/scim-server.js';
import { directory } from '../../plugins/scim-app/src/private-test-helpers/seed.js';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { GraphNodeView, TestEmulator } from '@oaakit/emulator/testing';

const here = dirname(fileURLToPath(import.meta.url));
const PLUGIN = resolve(here, '../../plugins/scim-app');
const TOKEN = 'scim-e2e-token-5b1c9d2e7f';
const TYPE = 'OAA.WikiApp';

let emu: TestEmulator;
let scim: ScimServer;
let work: { dir: string; remove: () => Promise<void> };
let configPath: string;
let dataSourceId: string;
let nodes: GraphNodeView[];

function run(args: string[], env: Record<string, string | undefined>): Promise<OaaResult> {
  return oaa(['run', '--config', configPath, ...args], { cwd: work.dir, env: { ...emu.env, ...env } });
}

/** The id of the node of a type and name. */
function nodeId(type: string, name: string): string {
  const node = nodes.find((n) => n.type === `${TYPE}.${type}` && n.name === name);
  if (node === undefined) throw new Error(`no ${type} node named ${name}`);
  return node.id;
}

/** Names of the nodes an edge of `kind` leads to from the node `src`. */
async function targets(kind: string, src: string): Promise<(string | null | undefined)[]> {
  const edges = await emu.admin.graph.edges({ dataSourceId: dataSourceId, kind: kind });
  return edges
    .filter((e) => e.src === src)
    .map((e) => nodes.find((n) => n.id === e.dst)?.name)
    .sort();
}

beforeAll(async () => {
  emu = await startTestEmulator({ role: 'admin' });
  scim = await startScimServer({ ...directory(), auth: { type: 'bearer', token: TOKEN } });
  work = await tempDir('oaa-e2e-scim-');
  configPath = join(work.dir, 'oaa.config.json');
  const config = {
    connectors: [
      {
        id: 'wiki',
        plugin: PLUGIN,
        provider: 'Wiki',
        dataSource: 'Wiki SCIM',
        config: {
          baseUrl: scim.baseUrl,
          applicationName: 'Wiki',
          applicationType: 'WikiApp',
          auth: { type: 'bearer' },
        },
        secrets: { credential: 'env:SCIM_TOKEN' },
      },
    ],
  };
  await writeFile(configPath, JSON.stringify(config, null, 2));
});

afterAll(async () => {
  await scim?.close();
  await emu?.close();
  await work?.remove();
});

describe('oaa run with the SCIM app plugin', () => {
  it('reads the SCIM service with the token from the environment and pushes it', async () => {
    const res = await run(['--json'], { SCIM_TOKEN: TOKEN });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).not.toContain(TOKEN);
    const out = json<RunOutput>(res);
    expect(out.failures).toEqual([]);
    const result = out.results[0]!;
    expect(result).toMatchObject({
      connectorId: 'wiki',
      template: 'application',
      status: 'pushed',
      provider: { name: 'Wiki', created: true },
      dataSource: { name: 'Wiki SCIM', created: true },
      counts: { applications: 1, local_users: 4, local_groups: 3, local_roles: 2, permissions: 2 },
    });
    assert(result.status === 'pushed');
    dataSourceId = result.dataSource.id;
    expect((await emu.admin.calls.pushes()).length).toBe(1);
    expect(scim.requests.some((r) => r.path.endsWith('/Users') && r.status === 200)).toBe(true);
  });

  it('creates the provider as SCIM-provisioned', async () => {
    const res = await oaa(['providers', 'get', 'Wiki', '--json'], { cwd: work.dir, env: emu.env });
    expect(res.code, res.stderr).toBe(0);
    expect(json<Provider>(res)).toMatchObject({
      name: 'Wiki',
      custom_template: 'application',
      external_lifecycle_management_type: 'SCIM',
    });
  });

  it("leaves each user's roles, permissions and groups in the graph, with the nested group", async () => {
    nodes = await emu.admin.graph.nodes({ dataSourceId: dataSourceId });
    const users = nodes.filter((n) => n.type === `${TYPE}.User`).map((n) => n.name);
    expect(users.sort()).toEqual(['alice', 'bob', 'carol', 'dave']);

    const alice = nodeId('User', 'alice');
    expect(await targets('HAS_ROLE', alice)).toEqual(['Admin']);
    expect(await targets('HAS_ROLE', nodeId('User', 'bob'))).toEqual(['Developer']);
    const roleEdge = (await emu.admin.graph.edges({ dataSourceId: dataSourceId, kind: 'HAS_ROLE' })).find(
      (e) => e.src === alice,
    );
    expect(roleEdge?.scope).toBe(nodeId('Application', 'Wiki'));
    expect(await targets('HAS_PERMISSION', alice)).toEqual(['repo:read', 'repo:write']);

    expect(await targets('MEMBER_OF', alice)).toEqual(['Engineering']);
    expect(await targets('MEMBER_OF', nodeId('User', 'carol'))).toEqual(['Backend']);
    expect(await targets('MEMBER_OF', nodeId('Group', 'Backend'))).toEqual(['Engineering']);
    expect(await targets('MEMBER_OF', nodeId('User', 'dave'))).toEqual([]);
  });

  it('stops with the config exit code, naming the secret and its variable, when the variable is unset', async () => {
    const res = await run([], { SCIM_TOKEN: undefined });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('"credential"');
    expect(res.stderr).toContain('SCIM_TOKEN');
    expect(res.stderr).toContain('"wiki"');
    expect((await emu.admin.calls.pushes()).length).toBe(1);
  });
});
