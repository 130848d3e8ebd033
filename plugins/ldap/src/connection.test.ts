/**
 * How a refused bind is told apart. OpenLDAP answers invalidCredentials (49) with no reason;
 * Active Directory adds one to the diagnostic message (`data 533`), which the connector names.
 * The Samba tests bind against a real domain controller; these check every reason code.
 */
import {
  ConfidentialityRequiredError,
  InvalidCredentialsError,
  StrongAuthRequiredError,
  UnwillingToPerformError,
} from 'ldapts';
import { describe, expect, it } from 'vitest';
import { ldapConfigSchema } from './config.js';
import { adBindReason, AD_BIND_REASONS, bindError } from './connection.js';

const config = ldapConfigSchema.parse({ url: 'ldap://dc1.corp.example', bindDn: 'CORP\\oaa-reader' });
const where = 'ldap://dc1.corp.example';

function adRefusal(code: string): InvalidCredentialsError {
  return new InvalidCredentialsError(
    `80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data ${code}, v4563\u0000`,
  );
}

describe('a refused bind', () => {
  it('reads the reason out of an Active Directory diagnostic message', () => {
    expect(adBindReason(adRefusal('52e').message)).toBe('52e');
    expect(adBindReason(adRefusal('775').message)).toBe('775');
    expect(adBindReason('invalid credentials')).toBeUndefined();
  });

  it('names each Active Directory reason: wrong password, disabled, expired, locked out...', () => {
    const said = Object.fromEntries(
      Object.keys(AD_BIND_REASONS).map((code) => [code, bindError(adRefusal(code), where, config).message]),
    );
    expect(said['52e']).toBe(
      `${where} refused the bind as "CORP\\oaa-reader": the password is wrong (Active Directory reason data 52e)`,
    );
    expect(said['533']).toBe(
      `${where} refused the bind as "CORP\\oaa-reader": the account is disabled (Active Directory reason data 533)`,
    );
    expect(said['532']).toContain(': the password of the account has expired (');
    expect(said['701']).toContain(': the account has expired (');
    expect(said['775']).toContain(': the account is locked out (');
    for (const code of Object.keys(AD_BIND_REASONS)) {
      const error = bindError(adRefusal(code), where, config);
      expect(error.code).toBe('SOURCE_CREDENTIALS_REFUSED');
      expect(error.details).toMatchObject({
        adReason: code,
        field: code === '52e' ? 'bindPassword' : 'bindDn',
      });
    }
    expect(bindError(adRefusal('533'), where, config).hints).toEqual([
      'ask the directory administrators to enable the account, or bind as another one',
    ]);
  });

  it('names TLS when the server requires it (strongAuthRequired, confidentialityRequired)', () => {
    for (const error of [
      new StrongAuthRequiredError(
        '00002028: LdapErr: DSID-0C090259, comment: The server requires binds to turn on integrity checking if SSL\\TLS are not already active on the connection',
      ),
      new ConfidentialityRequiredError('confidentiality required'),
    ]) {
      const said = bindError(error, where, config);
      expect(said.code).toBe('TLS_REQUIRED');
      expect(said.message).toMatch(/^ldap:\/\/dc1\.corp\.example requires TLS for a simple bind/);
      expect(said.details).toEqual({ field: 'startTls' });
    }
  });

  it('names another refusal by the server as a refused bind, with its message', () => {
    const said = bindError(
      new UnwillingToPerformError('00002035: LdapErr: DSID-0C090E6E, comment: Unwilling to perform'),
      where,
      config,
    );
    expect(said).toMatchObject({
      code: 'SOURCE_CREDENTIALS_REFUSED',
      details: { field: 'bindDn', resultCode: 53 },
    });
    expect(said.message).toMatch(
      /^ldap:\/\/dc1\.corp\.example refused the bind as "CORP\\oaa-reader": 00002035: /,
    );
  });
});
