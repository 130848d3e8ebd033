/**
 * check() against real servers: it binds and reads the rootDSE, and when it cannot, its error
 * names the cause: a wrong password, an account that may not bind, TLS the server requires, a
 * certificate the CA file does not verify, a server that is not there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LdapConfigInput } from './config.js';
import { ldapConnector } from './connector.js';
import { testContext } from './private-test-helpers/context.js';
import {
  loadFixtureDirectory,
  LOCKED_OUT,
  type FixtureDirectory,
} from './private-test-helpers/fixture-directory.js';
import { selfSignedCertificate, startSlapd, type SlapdServer } from './private-test-helpers/slapd-server.js';

let server: SlapdServer;
let fixtures: FixtureDirectory;
/** A server that refuses simple binds without TLS (`security simple_bind=128`). */
let tlsOnly: SlapdServer;
let tlsOnlyFixtures: FixtureDirectory;
let dir: string;
/** A CA that signed neither server's certificate. */
let otherCa: string;

beforeAll(async () => {
  server = await startSlapd();
  fixtures = await loadFixtureDirectory(server);
  tlsOnly = await startSlapd({ databaseLines: ['security simple_bind=128'] });
  tlsOnlyFixtures = await loadFixtureDirectory(tlsOnly);
  dir = await mkdtemp(join(tmpdir(), 'oaakit-ldap-check-'));
  otherCa = (await selfSignedCertificate(dir, 'other-ca')).cert;
});
afterAll(async () => {
  await server?.stop();
  await tlsOnly?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function check(config: LdapConfigInput, password: string) {
  const t = testContext(config, password);
  await ldapConnector.check!(t.ctx);
  return t;
}

async function failure(config: LdapConfigInput, password: string): Promise<OaaError<string>> {
  const error: unknown = await check(config, password).then(
    () => new Error('check() passed'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OaaError);
  return error as OaaError<string>;
}

describe('check()', () => {
  it('binds, reads the rootDSE and says what it found', async () => {
    const t = await check({ url: server.url, bindDn: fixtures.readerDn }, fixtures.readerPassword);
    expect(t.logs).toContainEqual([
      'info',
      'bound, and read the rootDSE',
      { flavor: 'openldap', baseDn: 'dc=corp,dc=example', server: server.url },
    ]);
  });

  it('names a wrong password, without the password', async () => {
    const error = await failure({ url: server.url, bindDn: fixtures.readerDn }, 'not-the-password');
    expect(error.code).toBe('SOURCE_CREDENTIALS_REFUSED');
    expect(error.message).toContain(`refused the bind as "${fixtures.readerDn}": the password is wrong`);
    expect(error.hints).toEqual(['check the secret "bindPassword" and bindDn']);
    expect(JSON.stringify(error)).not.toContain('not-the-password');
  });

  it('refuses an empty password, which would be an anonymous bind', async () => {
    const error = await failure({ url: server.url, bindDn: fixtures.readerDn }, '');
    expect(error.code).toBe('BIND_PASSWORD_EMPTY');
    expect(error.message).toMatch(/is empty: a simple bind without a password is an anonymous bind/);
  });

  it('names a bind account that the password policy locked', async () => {
    const dn = `uid=${LOCKED_OUT},ou=people,dc=corp,dc=example`;
    const error = await failure({ url: server.url, bindDn: dn }, fixtures.passwords.get(dn)!);
    expect(error.code).toBe('SOURCE_CREDENTIALS_REFUSED');
    expect(error.message).toMatch(/or the account may not bind \(locked by the password policy, for one\)/);
  });

  it('names TLS when the server requires it for binds, and passes with StartTLS or ldaps://', async () => {
    const bind = { bindDn: tlsOnlyFixtures.readerDn };
    const error = await failure({ url: tlsOnly.url, ...bind }, tlsOnlyFixtures.readerPassword);
    expect(error.code).toBe('TLS_REQUIRED');
    expect(error.message).toBe(
      `${tlsOnly.url} requires TLS for a simple bind (ConfidentialityRequiredError): confidentiality required Code: 0xd`,
    );
    expect(error.hints).toEqual([
      'use an ldaps:// url, or set startTls: true (with caFile if the CA is private)',
    ]);
    await check(
      { url: tlsOnly.url, startTls: true, caFile: tlsOnly.caFile, ...bind },
      tlsOnlyFixtures.readerPassword,
    );
    await check({ url: tlsOnly.ldapsUrl, caFile: tlsOnly.caFile, ...bind }, tlsOnlyFixtures.readerPassword);
  });

  it('names a certificate the CA file does not verify, over ldaps:// and StartTLS', async () => {
    for (const url of [{ url: server.ldapsUrl }, { url: server.url, startTls: true }]) {
      const error = await failure(
        { ...url, caFile: otherCa, bindDn: fixtures.readerDn },
        fixtures.readerPassword,
      );
      expect(error.code).toBe('TLS_CERTIFICATE_REJECTED');
      expect(error.message).toMatch(/is not trusted: .*; it is checked against caFile .*other-ca\.crt$/);
      expect(error.details).toMatchObject({ field: 'caFile' });
    }
    // Without a caFile the system CAs are used, which know nothing of a self-signed certificate.
    const system = await failure(
      { url: server.ldapsUrl, bindDn: fixtures.readerDn },
      fixtures.readerPassword,
    );
    expect(system.code).toBe('TLS_CERTIFICATE_REJECTED');
    expect(system.message).toMatch(/checked against the system CAs, as no caFile is set$/);
  });

  it('names a CA file it cannot read, relative to the config file', async () => {
    const t = testContext(
      { url: server.ldapsUrl, caFile: 'missing-ca.pem', bindDn: fixtures.readerDn },
      fixtures.readerPassword,
    );
    const error = await ldapConnector.check!({ ...t.ctx, baseDir: dir }).then(
      () => undefined,
      (e: unknown) => e as OaaError<string>,
    );
    expect(error).toMatchObject({ code: 'CA_FILE_UNREADABLE', details: { field: 'caFile' } });
    expect(error!.message).toContain(join(dir, 'missing-ca.pem'));
  });

  it('names a server that is not there as unreachable (and worth retrying)', async () => {
    const stopped = await startSlapd();
    await stopped.stop();
    const error = await failure({ url: stopped.url, bindDn: fixtures.readerDn }, 'x');
    expect(error).toMatchObject({ code: 'SOURCE_UNREACHABLE', retryable: true });
    expect(error.message).toMatch(/^cannot reach the directory at ldap:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  it('names a baseDn that does not exist', async () => {
    const error = await failure(
      { url: server.url, bindDn: fixtures.readerDn, baseDn: 'ou=nowhere,dc=corp,dc=example' },
      fixtures.readerPassword,
    );
    expect(error.code).toBe('BASE_DN_UNKNOWN');
    expect(error.message).toBe(
      `baseDn "ou=nowhere,dc=corp,dc=example" does not exist on ${server.url}, or "${fixtures.readerDn}" may not see it`,
    );
  });
});
