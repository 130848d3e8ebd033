/**
 * A bind account without the `limits` line has OpenLDAP's default size limit of 500 entries, paged
 * searches included: the read of the fixture's 579 users stops there. The connector must fail,
 * naming the limit and the line that lifts it, and nothing may be pushed: a directory cut at 500
 * users would delete the others from the access graph.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import { startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, runConnector } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ldapConnector from './index.js';
import { extractAll, testContext } from './private-test-helpers/context.js';
import { loadFixtureDirectory, type FixtureDirectory } from './private-test-helpers/fixture-directory.js';
import { startSlapd, type SlapdServer } from './private-test-helpers/slapd-server.js';

const LIMITS_LINE = 'limits dn.exact="cn=oaa-reader,ou=services,dc=corp,dc=example" size.prtotal=unlimited';

let server: SlapdServer;
let fixtures: FixtureDirectory;
let emulator: TestEmulator;
let dir: string;

beforeAll(async () => {
  server = await startSlapd({ readerLimits: false });
  fixtures = await loadFixtureDirectory(server);
  emulator = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'oaakit-ldap-limits-'));
});
afterAll(async () => {
  await emulator?.close();
  await server?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('a bind account without a limits line', () => {
  it('fails the read of the users with the size limit named, and the line that lifts it', async () => {
    const t = testContext({ url: server.url, bindDn: fixtures.readerDn }, fixtures.readerPassword);
    const error = await extractAll(t).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OaaError);
    expect(error).toMatchObject({
      code: 'SERVER_LIMIT_EXCEEDED',
      details: { limit: 'size', what: 'users', read: 500 },
      hints: [
        `lift the limit on paged searches for the bind account: add to the database's section of slapd.conf (or olcLimits in cn=config) ${LIMITS_LINE}`,
      ],
    });
    expect((error as Error).message).toBe(
      `${server.url} stopped the paged read of users after 500 entries: the server's size limit for ` +
        `"${fixtures.readerDn}" is lower than the number of users (sizeLimitExceeded); the connector pushes ` +
        'nothing rather than part of the directory',
    );
  });

  it('fails the run, and pushes nothing', async () => {
    const client = createClient({ url: emulator.url, apiKey: emulator.apiKey });
    const error = await runConnector({
      connector: ldapConnector,
      config: { url: server.url, bindDn: fixtures.readerDn },
      secrets: { bindPassword: fixtures.readerPassword },
      provider: 'Corp directory',
      dataSource: 'corp.example',
      client,
      state: new StateStore(join(dir, 'state')),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'EXTRACT_FAILED', details: { causeCode: 'SERVER_LIMIT_EXCEEDED' } });
    // Whatever the run made before it failed, no data source holds a node.
    const nodes: Record<string, unknown>[] = [];
    for await (const p of client.providers.list())
      for await (const ds of client.dataSources.list({ providerId: p.id })) {
        const res = await fetch(`${emulator.url}/_emulator/graph/stats?data_source_id=${ds.id}`, {
          headers: { authorization: `Bearer ${emulator.adminKey}` },
        });
        nodes.push(((await res.json()) as { nodes: Record<string, unknown> }).nodes);
      }
    expect(nodes.filter((n) => Object.keys(n).length > 0)).toEqual([]);
  });
});
