import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgresConnector from './index.js';
import { testContext } from './private-test-helpers/context.js';
import { createTemplate, startPgServer, type PgServer, type PgTemplate } from './testing/index.js';

const PASSWORD = 'tls-reader-password';
let template: PgTemplate;
let tlsServer: PgServer;
let plainServer: PgServer;
let dir: string;

beforeAll(async () => {
  template = await createTemplate();
  tlsServer = await startPgServer(template, { tls: true });
  plainServer = await startPgServer(template);
  for (const server of [tlsServer, plainServer]) {
    const admin = await server.connectAsSuperuser();
    await admin.query(`CREATE ROLE tls_reader LOGIN PASSWORD '${PASSWORD}'`);
    await admin.end();
  }
  dir = await mkdtemp(join(tmpdir(), 'oaakit-pg-tls-'));
});
afterAll(async () => {
  await tlsServer?.stop();
  await plainServer?.stop();
  await template?.remove();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

function check(server: PgServer, extra: Record<string, unknown>, baseDir?: string) {
  const t = testContext(
    { host: server.host, port: server.port, user: 'tls_reader', databases: ['postgres'], ...extra },
    PASSWORD,
  );
  return postgresConnector.check!(baseDir === undefined ? t.ctx : { ...t.ctx, baseDir });
}

describe('postgres connector over TLS', () => {
  it('verifies the server against caFile (verify-full, the default), relative to the config directory', async () => {
    await copyFile(tlsServer.caFile!, join(dir, 'ca.pem'));
    await check(tlsServer, { caFile: 'ca.pem' }, dir);
  });

  it('refuses a server whose certificate it cannot verify', async () => {
    await expect(check(tlsServer, {})).rejects.toMatchObject({
      code: 'SOURCE_UNREACHABLE',
      message: expect.stringMatching(/self[- ]signed certificate/),
    });
  });

  it('takes any certificate with require, and refuses a server without TLS', async () => {
    await check(tlsServer, { ssl: 'require' });
    await expect(check(plainServer, { ssl: 'require' })).rejects.toMatchObject({
      code: 'SOURCE_UNREACHABLE',
      message: expect.stringMatching(/does not support SSL/),
    });
  });

  it('names a caFile it cannot read', async () => {
    await expect(check(tlsServer, { caFile: 'missing-ca.pem' }, dir)).rejects.toMatchObject({
      message: expect.stringContaining(join(dir, 'missing-ca.pem')),
    });
  });

  it('rejects caFile without verify-full in the config', () => {
    const result = postgresConnector.configSchema.safeParse({
      host: 'db',
      user: 'u',
      ssl: 'require',
      caFile: 'ca.pem',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['caFile'], message: 'caFile is only used with ssl "verify-full"' }),
    ]);
  });
});
