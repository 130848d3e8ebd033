#!/usr/bin/env node
/**
 * The declarative engine against the hand-written connector it replaces: `npm run bench:rest --
 * [--users N] [--page-size N] [--runs N]`. A SCIM 2.0 server on 127.0.0.1 (port 0) serves a
 * directory of N users (default 10,000) and N/100 groups, each user with two emails, a role, an
 * entitlement or two and the enterprise extension; then scim-app and the scim manifest of
 * @oaakit/plugin-rest each read it `--runs` times (alternating, each a dry run through the runner's
 * `runConnector`: extract, validation, digest, as `oaa run --dry-run`). Prints one JSON line: the
 * median seconds of each, the manifest's overhead over scim-app, the requests each made, and
 * whether their digests are equal (they must be).
 *
 * The server answers each page from memory, so the time is the connectors' own: SCIMMY (the
 * SCIM server of the tests) filters every resource on each request and takes minutes for 10,000
 * users, which would hide any difference between the two.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Connector } from '@oaakit/core';
import restConnector from '@oaakit/plugin-rest';
import scimApp from '@oaakit/plugin-scim-app';
import { StateStore, runConnector } from '@oaakit/runner';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    'page-size': { type: 'string', default: '100' },
    runs: { type: 'string', default: '5' },
  },
});
const users = Number(values.users);
const pageSize = Number(values['page-size']);
const runs = Number(values.runs);
for (const [name, v] of [
  ['--users', users],
  ['--page-size', pageSize],
  ['--runs', runs],
] as const)
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);

const TOKEN = 'bench-scim-token';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const ROLES = ['Admin', 'Developer', 'Reader', 'Auditor', 'Support'];
const ENTITLEMENTS = ['repo:read', 'repo:write', 'billing:read', 'billing:write', 'deploy'];

/** The directory: users, and groups of 100 users each (every tenth group nested in the one before). */
function directory(n: number): { users: object[]; groups: object[] } {
  const list = Array.from({ length: n }, (_, i) => {
    const name = `user${String(i + 1).padStart(6, '0')}`;
    return {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
      id: `u-${i + 1}`,
      userName: name,
      displayName: `User ${i + 1}`,
      active: i % 17 !== 0,
      meta: { resourceType: 'User', created: '2023-04-05T06:07:08.000Z' },
      emails: [
        { value: `${name}@home.example`, type: 'home' },
        { value: `${name}@example.com`, type: 'work', primary: true },
      ],
      roles: [{ value: ROLES[i % ROLES.length] }],
      entitlements: [
        { value: ENTITLEMENTS[i % ENTITLEMENTS.length] },
        ...(i % 3 === 0 ? [{ value: 'deploy' }] : []),
      ],
      [ENTERPRISE]: {
        employeeNumber: `E${i + 1}`,
        department: `Dept ${i % 20}`,
        ...(i > 0 ? { manager: { value: `u-${Math.floor(i / 10) + 1}` } } : {}),
      },
    };
  });
  const groups = Array.from({ length: Math.ceil(n / 100) }, (_, g) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    id: `g-${g + 1}`,
    displayName: `Group ${g + 1}`,
    members: [
      ...list.slice(g * 100, g * 100 + 100).map((u) => ({ value: (u as { id: string }).id, type: 'User' })),
      ...(g % 10 === 9 ? [] : g + 1 < Math.ceil(n / 100) ? [{ value: `g-${g + 2}`, type: 'Group' }] : []),
    ],
  }));
  return { users: list, groups };
}

/** A SCIM server answering ListResponses of `users` and `groups` (RFC 7644 3.4.2), bearer token checked. */
async function serve(data: {
  users: object[];
  groups: object[];
}): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const all = url.pathname.endsWith('/Users')
      ? data.users
      : url.pathname.endsWith('/Groups')
        ? data.groups
        : undefined;
    if (all === undefined) {
      res.writeHead(404).end();
      return;
    }
    const start = Math.max(1, Number(url.searchParams.get('startIndex') ?? '1'));
    const count = Math.min(Number(url.searchParams.get('count') ?? '100'), 1000);
    const page = all.slice(start - 1, start - 1 + count);
    res.writeHead(200, { 'content-type': 'application/scim+json' });
    res.end(
      JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: all.length,
        startIndex: start,
        itemsPerPage: page.length,
        Resources: page,
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One dry run through the runner; seconds, digest and the requests it made. */
async function dryRun(
  connector: Connector,
  config: unknown,
  secrets: Record<string, string>,
): Promise<{ seconds: number; digest: string; requests: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-rest-'));
  let requests = 0;
  const counting: typeof globalThis.fetch = (input, init) => {
    requests += 1;
    return globalThis.fetch(input, init);
  };
  try {
    const started = performance.now();
    const result = await runConnector({
      connector,
      config,
      secrets,
      provider: 'Bench',
      dataSource: 'Bench',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
      sourceFetch: counting,
    });
    return { seconds: (performance.now() - started) / 1000, digest: result.digest, requests };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round = (x: number): number => Math.round(x * 1000) / 1000;

const data = directory(users);
const server = await serve(data);
try {
  const hand = { seconds: [] as number[], digest: '', requests: 0 };
  const manifest = { seconds: [] as number[], digest: '', requests: 0 };
  const handConfig = {
    baseUrl: server.url,
    applicationName: 'Bench',
    applicationType: 'Bench',
    auth: { type: 'bearer' },
    pageSize,
  };
  const manifestConfig = {
    manifest: 'scim',
    vars: { url: server.url, application_name: 'Bench', application_type: 'Bench', page_size: pageSize },
  };
  // One warm-up run of each (module loading, JIT), not counted.
  await dryRun(scimApp, handConfig, { credential: TOKEN });
  await dryRun(restConnector, manifestConfig, { token: TOKEN });
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? ['hand', 'manifest'] : ['manifest', 'hand'];
    for (const which of order) {
      const r =
        which === 'hand'
          ? await dryRun(scimApp, handConfig, { credential: TOKEN })
          : await dryRun(restConnector, manifestConfig, { token: TOKEN });
      const into = which === 'hand' ? hand : manifest;
      into.seconds.push(r.seconds);
      into.digest = r.digest;
      into.requests = r.requests;
    }
  }
  const handS = median(hand.seconds);
  const manifestS = median(manifest.seconds);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'rest-scim',
      users,
      groups: data.groups.length,
      page_size: pageSize,
      runs,
      node: process.version,
      scim_app_s: round(handS),
      manifest_s: round(manifestS),
      overhead: round(manifestS / handS - 1),
      scim_app_requests: hand.requests,
      manifest_requests: manifest.requests,
      digests_equal: hand.digest === manifest.digest,
    })}\n`,
  );
  if (hand.digest !== manifest.digest) process.exitCode = 1;
} finally {
  await server.close();
}
