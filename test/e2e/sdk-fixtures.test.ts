/**
 * Fidelity with the vendor's Python SDK: the three payloads with every field SDK 1.1.15 can emit
 * (`packages/core/fixtures/sdk-fields`, built by core's builders to reproduce what the SDK built)
 * pass the built `oaa validate`, land through `oaa push` with status 200, and are then in the
 * emulator's graph: nodes by type, access credentials, owners and nested roles, read through the
 * emulator's admin graph endpoints.
 */
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '@oaakit/emulator';
import type { GraphEdgeView, GraphNodeView } from '@oaakit/emulator';
import { json, oaa } from '../../packages/cli/src/private-test-helpers/run-oaa.js';

const here = dirname(fileURLToPath(import.meta.url));
const SDK = resolve(here, '../../packages/core/fixtures/sdk-fields');
const FILES = {
  application: resolve(SDK, 'application.json'),
  identity_provider: resolve(SDK, 'identity_provider.json'),
  hris: resolve(SDK, 'hris.json'),
};
type Template = keyof typeof FILES;

/** What this test reads of `oaa push --json`. */
interface PushOutput {
  provider: { id: string; created: boolean };
  dataSource: { id: string };
  warnings: { message: string }[];
}

let emu: { url: string; apiKey: string; env: Record<string, string>; close: () => Promise<void> };
/** The `oaa push --json` output of each template. */
const pushed = new Map<Template, PushOutput>();

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${emu.url}${path}`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Stats {
  nodes: Record<string, number>;
  edges: Record<string, number>;
}
const stats = (t: Template): Promise<Stats> =>
  get<Stats>(`/_emulator/graph/stats?data_source_id=${pushed.get(t)!.dataSource.id}`);

/** The graph of a template's push, with edges as [source name or ref, destination name or ref]. */
async function graph(t: Template) {
  const ds = pushed.get(t)!.dataSource.id;
  const query = `data_source_id=${ds}&limit=10000`;
  const nodes = (await get<{ values: GraphNodeView[] }>(`/_emulator/graph/nodes?${query}`)).values;
  const edges = (await get<{ values: GraphEdgeView[] }>(`/_emulator/graph/edges?${query}`)).values;
  const nameOf = (id: string | null) => nodes.find((n) => n.id === id)?.name ?? null;
  const named = (kind: string, match: (e: GraphEdgeView) => boolean = () => true) =>
    edges
      .filter((e) => e.kind === kind && match(e))
      .map((e) => [nameOf(e.src) ?? e.ref, nameOf(e.dst) ?? e.ref]);
  const names = (type: string) => nodes.filter((n) => n.type === type).map((n) => n.name);
  return { nodes, edges, named, names };
}

beforeAll(async () => {
  const apiKey = `oaa_e2e_${randomBytes(16).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  emu = {
    url: emulator.url,
    apiKey,
    env: { OAA_URL: emulator.url, OAA_API_KEY: apiKey },
    close: () => emulator.close(),
  };
});

afterAll(async () => {
  await emu?.close();
});

describe('payloads with every field the vendor SDK 1.1.15 emits', () => {
  it.each(Object.entries(FILES))('%s passes oaa validate with no error and no warning', async (t, file) => {
    const res = await oaa(['validate', file, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(json(res)).toMatchObject({ template: t, valid: true, errors: [], warnings: [] });
  });

  it('each pushes with status 200 into a new provider', async () => {
    // The identity provider first: the application's identities are then looked up in it.
    for (const t of ['identity_provider', 'hris', 'application'] as const) {
      const args = ['push', FILES[t], '--provider', `SDK ${t}`, '--data-source', `sdk-${t}`];
      const res = await oaa([...args, '-t', t, '--create-provider', '--json'], { env: emu.env });
      expect(res.code, res.stderr).toBe(0);
      const out = json<PushOutput>(res);
      expect(out.provider.created).toBe(true);
      pushed.set(t, out);
    }
    const calls = (
      await get<{ values: { method: string; path: string; status: number | null }[] }>(
        '/_emulator/calls?method=POST',
      )
    ).values.filter((c) => c.path.endsWith(':push'));
    expect(calls.map((c) => c.status)).toEqual([200, 200, 200]);
    // The identity provider and HRIS payloads draw no warning. The application's local identities
    // match no identity-provider user or group: one warning each, as the service answers.
    expect(pushed.get('identity_provider')!.warnings).toEqual([]);
    expect(pushed.get('hris')!.warnings).toEqual([]);
    const unmatched = ['grp1', 'grp2', 'user1', 'alt', 'idpuser'].map((n) => `${n}@example.com`);
    expect(pushed.get('application')!.warnings.map((w) => w.message)).toEqual(
      unmatched.map((n) => expect.stringContaining(`Cannot find identity by names "${n}"`)),
    );
  });

  it('the application is in the graph: its nodes by type', async () => {
    expect((await stats('application')).nodes).toEqual({
      'OAA.maxtype.Application': 1,
      'OAA.maxtype.User': 1,
      'OAA.maxtype.Group': 2,
      'OAA.maxtype.Role': 2,
      'OAA.maxtype.AccessCred': 1,
      // One node per resource type of each permission: read on db, write on table.
      'OAA.maxtype.Permission': 2,
      'OAA.maxtype.db.Resource': 1,
      'OAA.maxtype.table.SubResource': 1,
      'OAA.maxtype.column.SubResource': 1,
    });
    const g = await graph('application');
    expect(g.names('OAA.maxtype.User')).toEqual(['user1']);
    expect(g.names('OAA.maxtype.Group')).toEqual(['grp1', 'grp2']);
    expect(g.names('OAA.maxtype.Role')).toEqual(['role1', 'role2']);
    expect(g.named('MEMBER_OF')).toEqual([
      ['grp2', 'grp1'],
      ['user1', 'grp1'],
    ]);
  });

  it('the access credential has its user and its grants', async () => {
    const g = await graph('application');
    const cred = g.nodes.find((n) => n.type === 'OAA.maxtype.AccessCred')!;
    expect(cred.name).toBe('Cred One');
    expect(cred.properties).toMatchObject({ id: 'cred1' });
    expect(g.named('HAS_ACCESS_CRED')).toEqual([['user1', 'Cred One']]);
    const fromCred = (e: GraphEdgeView) => e.src === cred.id;
    expect(g.named('HAS_PERMISSION', fromCred)).toEqual([['Cred One', 'write']]);
    expect(g.named('HAS_ROLE', fromCred)).toEqual([['Cred One', 'role2']]);
    const role = g.edges.find((e) => e.kind === 'HAS_ROLE' && fromCred(e))!;
    expect(g.nodes.find((n) => n.id === role.scope)!.name).toBe('tbl1');
  });

  it('the owners are OWNS edges to what they own', async () => {
    const g = await graph('application');
    // Every owner is outside the graph (identity-provider users): named by its external id.
    expect(g.named('OWNS').sort()).toEqual(
      [
        ['owner@example.com', 'max app'],
        ['owner2@example.com', 'max app'],
        ['o@example.com', 'user1'],
        ['o@example.com', 'grp1'],
        ['o@example.com', 'role1'],
        ['o@example.com', 'Cred One'],
        ['o@example.com', 'db1'],
        ['o@example.com', 'tbl1'],
      ].sort(),
    );
    const appOwners = g.edges.filter((e) => e.kind === 'OWNS' && e.ref?.startsWith('owner'));
    expect(appOwners.map((e) => e.properties)).toEqual([
      { owner_type: 'oktauser', primary: true },
      { owner_type: 'azureaduser', primary: false },
    ]);
  });

  it('the nested role: role2 holds role1, and role2 holders get role1’s permissions', async () => {
    const g = await graph('application');
    expect(g.named('ROLE_HAS_ROLE')).toEqual([['role2', 'role1']]);
    expect(g.named('ROLE_HAS_PERMISSION').sort()).toEqual(
      [
        ['role1', 'read'],
        ['role1', 'write'],
        ['role2', 'read'],
        // From role1, marked as such.
        ['role2', 'write'],
      ].sort(),
    );
    const inherited = g.edges.filter((e) => e.kind === 'ROLE_HAS_PERMISSION' && e.properties !== null);
    expect(inherited.map((e) => e.properties)).toEqual([{ inherited: true, via_role: 'role1' }]);
  });

  it('the identity provider and the HRIS system are in the graph', async () => {
    expect((await stats('identity_provider')).nodes).toEqual({
      'OAA.maxidp.IdPDomain': 1,
      'OAA.maxidp.IdPUser': 2,
      'OAA.maxidp.IdPGroup': 2,
      'OAA.maxidp.IdPApp': 1,
    });
    const idp = await graph('identity_provider');
    expect(idp.nodes.find((n) => n.name === 'u1')!.properties).toMatchObject({ identity_type: 'NONHUMAN' });
    expect(idp.named('SOURCE_IDENTITY')).toEqual([
      ['g1', 'active_directory:g1@corp.example.com'],
      ['u1', 'google_workspace:u1@corp.example.com'],
    ]);
    expect(idp.named('ASSIGNED_TO')).toEqual([
      ['g1', 'App One'],
      ['u1', 'App One'],
    ]);
    expect(idp.named('MANAGED_BY')).toEqual([['u1', 'u2']]);

    expect((await stats('hris')).nodes).toEqual({
      'OAA.maxhris.HRISSystem': 1,
      'OAA.maxhris.HRISEmployee': 2,
      'OAA.maxhris.HRISGroup': 2,
    });
    const hris = await graph('hris');
    expect(hris.named('MANAGED_BY')).toEqual([['Employee', 'Manager']]);
    expect(hris.named('DEPARTMENT')).toEqual([['Employee', 'Department 1']]);
    expect(hris.named('COST_CENTER')).toEqual([['Employee', 'Cost Center 1']]);
  });
});
