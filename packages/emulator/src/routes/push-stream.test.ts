/**
 * The emulator reads a pushed payload as a stream and writes its graph in one
 * transaction. A payload that turns out bad partway (cut short, a gzip bomb, a string that never
 * ends, a violation or a syntax error in its last users) gets a 400 naming the field, and the graph
 * pushed before stays exactly as it was, read back through the /_emulator graph views.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MIN_INFLATE_ALLOWANCE } from '../push/limits.js';
import { gzipRepeated } from '../private-test-helpers/bombs.js';
import { onlyViolation, samplePayload, useEmulator, type Answer } from '../private-test-helpers/harness.js';

/** Enough users that the spooled array is parsed in many batches (about 6 MB of JSON). */
const USERS = 30_000;

function bigPayload(users = USERS): Record<string, unknown> {
  const payload = samplePayload();
  const app = (payload.applications as Record<string, unknown>[])[0]!;
  app.local_users = Array.from({ length: users }, (_, i) => ({
    name: `user${i}`,
    identities: [`user${i}@example.com`],
    groups: ['devs'],
    is_active: true,
    custom_properties: {},
  }));
  payload.identity_to_permissions = Array.from({ length: users }, (_, i) => ({
    identity: `user${i}`,
    identity_type: 'local_user',
    role_assignments: [{ application: 'acme', role: 'admin', apply_to_application: true }],
  }));
  return payload;
}

describe('streaming ingest', () => {
  const h = useEmulator();

  /** Pushes the sample payload, and answers a reader of the data source's whole graph. */
  async function withGraph() {
    const t = await h().target('application');
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    const graph = async () => {
      const q = `data_source_id=${t.dataSourceId}&limit=100000`;
      const [stats, nodes, edges] = await Promise.all([
        h().call('GET', `/_emulator/graph/stats?data_source_id=${t.dataSourceId}`),
        h().call('GET', `/_emulator/graph/nodes?${q}`),
        h().call('GET', `/_emulator/graph/edges?${q}`),
      ]);
      return { stats: stats.body, nodes: nodes.body.values, edges: edges.body.values };
    };
    const before = await graph();
    expect(before.nodes.length).toBeGreaterThan(0);
    return { t, graph, before };
  }

  async function expectRefused(r: Answer, t: { base: string }, field: string, text: string) {
    const v = onlyViolation(r);
    expect(v.field).toBe(field);
    expect(v.description).toContain(text);
    expect((await h().call('GET', t.base)).body.value.status).toBe('FAILED');
  }

  const pushRaw = (
    t: { base: string; providerId: string; dataSourceId: string },
    json_data: string,
    gzip: boolean,
  ) =>
    h().call('POST', `${t.base}:push`, {
      id: t.providerId,
      data_source_id: t.dataSourceId,
      json_data,
      ...(gzip ? { compression_type: 'GZIP' } : {}),
    });

  it('ingests a payload read in many batches, and replaces the graph', async () => {
    const { t, graph } = await withGraph();
    const r = await h().push(t.base, bigPayload(), { gzip: true });
    expect(r.status).toBe(200);
    const after = await graph();
    const users = after.nodes.filter((n: { type: string }) => n.type === 'OAA.acme.User');
    expect(users).toHaveLength(USERS);
    expect(users.map((u: { name: string }) => u.name)).toContain(`user${USERS - 1}`);
    // Each user: member of devs, an identity and a role grant.
    expect(after.edges.filter((e: { kind: string }) => e.kind === 'HAS_ROLE')).toHaveLength(USERS);
  });

  it('reads json_data as the body arrives: escaped base64 lines, and plain JSON with \\u escapes', async () => {
    const { t, graph } = await withGraph();
    const payload = bigPayload(2000);
    const b64 = gzipSync(JSON.stringify(payload)).toString('base64');
    const wrapped = b64.replace(/(.{76})/g, '$1\\n').replaceAll('/', '\\/');
    const raw = `{"json_data":"${wrapped}","compression_type":"GZIP","id":"${t.providerId}","data_source_id":"${t.dataSourceId}"}`;
    expect((await h().call('POST', `${t.base}:push`, undefined, { raw })).status).toBe(200);
    const users = (await graph()).nodes.filter((n: { type: string }) => n.type === 'OAA.acme.User');
    expect(users).toHaveLength(2000);

    const app = (payload.applications as Record<string, unknown>[])[0]!;
    (app.local_users as Record<string, unknown>[])[0]!.name = 'zoë 😀';
    (payload.identity_to_permissions as Record<string, unknown>[])[0]!.identity = 'zoë 😀';
    const ids = { id: t.providerId, data_source_id: t.dataSourceId };
    const escaped = JSON.stringify({ ...ids, json_data: JSON.stringify(payload) }).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect((await h().call('POST', `${t.base}:push`, undefined, { raw: escaped })).status).toBe(200);
    const names = (await graph()).nodes.map((n: { name: string }) => n.name);
    expect(names).toContain('zoë 😀');
  });

  it('refuses a body cut short (the JSON ends after a user) and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    const text = JSON.stringify(bigPayload());
    const cut = text.slice(0, text.indexOf(`{"name":"user${USERS - 10}"`));
    await expectRefused(await pushRaw(t, cut, false), t, 'json_data', 'it was cut short');
    expect(await graph()).toEqual(before);
  });

  it('refuses gzip data cut short and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    const gz = gzipSync(JSON.stringify(bigPayload()));
    const cut = gz.subarray(0, Math.floor(gz.length * 0.9)).toString('base64');
    await expectRefused(await pushRaw(t, cut, true), t, 'json_data', 'is not valid gzip data');
    expect(await graph()).toEqual(before);
  });

  it('refuses a gzip bomb that starts as a valid payload and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    // A valid beginning, then white space inside the users array until the inflation limit.
    const text = JSON.stringify(bigPayload(100));
    const at = text.indexOf('"local_users":[') + '"local_users":['.length;
    const bomb = gzipRepeated(text.slice(0, at), Buffer.alloc(4_000_000, 0x20), 8, text.slice(at));
    const r = await pushRaw(t, bomb.toString('base64'), true);
    await expectRefused(r, t, 'json_data', `decompresses to more than ${MIN_INFLATE_ALLOWANCE} bytes`);
    expect(await graph()).toEqual(before);
  });

  it('refuses a body that ends in the middle of a string and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    const text = JSON.stringify(bigPayload());
    const cut = text.slice(0, text.indexOf(`"user${USERS - 3}@exa`) + 8);
    const r = await pushRaw(t, gzipSync(cut).toString('base64'), true);
    await expectRefused(r, t, 'json_data', 'ends inside a string');
    expect(await graph()).toEqual(before);
  });

  it('refuses a payload whose last user is invalid after the others were written, and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    const payload = bigPayload();
    const app = (payload.applications as Record<string, unknown>[])[0]!;
    const users = app.local_users as Record<string, unknown>[];
    users.push({ name: 'user0', identities: ['again@example.com'] });
    const r = await h().push(t.base, payload, { gzip: true });
    const v = onlyViolation(r);
    expect(v.field).toBe(`applications[0].local_users[${USERS}].name`);
    expect((await h().call('GET', t.base)).body.value.status).toBe('FAILED');
    expect(await graph()).toEqual(before);
  });

  /** The sample payload with `n` resources (each with a branch), spooled and read in many batches. */
  function manyResources(n: number): Record<string, unknown> {
    const payload = samplePayload();
    const app = (payload.applications as Record<string, unknown>[])[0]!;
    app.resources = Array.from({ length: n }, (_, i) => ({
      name: `repo${i}`,
      resource_type: 'repo',
      description: 'd'.repeat(200),
      sub_resources: [{ name: 'main', resource_type: i === n - 1 ? 'tag' : 'branch' }],
    }));
    payload.identity_to_permissions = [
      {
        identity: 'devs',
        identity_type: 'local_group',
        application_permissions: [
          { application: 'acme', permission: 'read', resources: [`repo${n - 1}.main`] },
        ],
      },
    ];
    return payload;
  }

  it('ingests resources read in many batches, with sub-resources, grants on their paths and their types', async () => {
    const { t, graph } = await withGraph();
    const n = 5000;
    expect((await h().push(t.base, manyResources(n), { gzip: true })).status).toBe(200);
    const after = await graph();
    const nodes = after.nodes as { id: string; type: string; name: string; parent_id: string | null }[];
    expect(nodes.filter((x) => x.type === 'OAA.acme.repo.Resource')).toHaveLength(n);
    const last = nodes.find((x) => x.name === `repo${n - 1}`)!;
    const main = nodes.find((x) => x.type === 'OAA.acme.tag.SubResource')!;
    expect(main.parent_id).toBe(last.id);
    // The grant on `repoN.main` resolved to the last sub-resource.
    const grants = (after.edges as { kind: string; scope_id?: string; scope?: string }[]).filter(
      (e) => e.kind === 'HAS_PERMISSION',
    );
    expect(JSON.stringify(grants)).toContain(main.id);
    const provider = await h().call('GET', `/api/v1/providers/custom/${t.providerId}`);
    expect(provider.body.value.resource_types).toEqual(expect.arrayContaining(['repo', 'branch', 'tag']));
  });

  it('refuses a repeated resource at the end of many and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    const payload = manyResources(5000);
    const app = (payload.applications as { resources: Record<string, unknown>[] }[])[0]!;
    app.resources.push({ name: 'repo7', resource_type: 'repo' });
    const v = onlyViolation(await h().push(t.base, payload, { gzip: true }));
    expect(v.field).toBe('applications[0].resources[5000].name');
    expect(await graph()).toEqual(before);
  });

  it('refuses a syntax error in the last grants and keeps the graph', async () => {
    const { t, graph, before } = await withGraph();
    const text = JSON.stringify(bigPayload());
    const last = text.lastIndexOf('"identity_type"');
    const broken = `${text.slice(0, last)}"identity_type" "local_user"${text.slice(last + '"identity_type":"local_user"'.length)}`;
    const r = await pushRaw(t, gzipSync(broken).toString('base64'), true);
    await expectRefused(r, t, 'json_data', 'is not valid JSON');
    expect(await graph()).toEqual(before);
  });
});

describe('streaming ingest: body limit without a Content-Length', () => {
  const LIMIT = 64 * 1024;
  const h = useEmulator({ bodyLimit: LIMIT });

  it('refuses a chunked body whose json_data runs past the limit, naming json_data', async () => {
    const t = await h().target('application');
    const head = `{"id":"${t.providerId}","data_source_id":"${t.dataSourceId}","compression_type":"GZIP","json_data":"`;
    const piece = new TextEncoder().encode('A'.repeat(16 * 1024));
    let sent = 0;
    // A body sent in pieces with no Content-Length: base64 text four times the limit, then the
    // client waits without ending it. The emulator must answer without waiting for the end.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
      },
      pull(controller) {
        if (sent++ < 16) controller.enqueue(piece);
        else return new Promise<void>(() => undefined);
        return undefined;
      },
    });
    const res = await fetch(`${h().emu.url}${t.base}:push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h().emu.adminKey}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    });
    const answer = (await res.json()) as { code: string; details: unknown };
    expect(res.status).toBe(400);
    expect(answer.code).toBe('InvalidArgument');
    expect(JSON.stringify(answer.details)).toContain(`the request body exceeds the limit of ${LIMIT} bytes`);
    expect(JSON.stringify(answer.details)).toContain('json_data');
  });
});
