/**
 * The connection to the directory: TCP or TLS (ldaps:// or StartTLS, verified against `caFile`),
 * the bind, and the rootDSE, which says which product the server is and where its data is. Every
 * failure becomes an error that names the cause and what to change.
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { OaaError } from '@oaakit/core';
import {
  Client,
  ConfidentialityRequiredError,
  InappropriateAuthError,
  InvalidCredentialsError,
  ResultCodeError,
  StrongAuthRequiredError,
  type Entry,
} from 'ldapts';
import { PASSWORD_SECRET, type LdapConfig } from './config.js';
import { first, values } from './entry-values.js';
import type { LdapErrorCode } from './error-codes.js';
import type { FlavorName } from './flavor.js';

/** Active Directory's `supportedCapabilities` value: LDAP_CAP_ACTIVE_DIRECTORY_OID. */
export const AD_CAPABILITY = '1.2.840.113556.1.4.800';
/** The simple paged results control (RFC 2696). */
export const PAGED_RESULTS_CONTROL = '1.2.840.113556.1.4.319';

/** The rootDSE attributes the connector reads. */
const ROOT_DSE_ATTRIBUTES = [
  'namingContexts',
  'defaultNamingContext',
  'rootDomainNamingContext',
  'supportedCapabilities',
  'supportedControl',
  'supportedLDAPVersion',
  'subschemaSubentry',
  'dnsHostName',
  'ldapServiceName',
  'vendorName',
  'vendorVersion',
];

/**
 * What Active Directory says after `data` in the diagnostic message of a refused bind
 * (`80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data 52e, v4563`).
 */
export const AD_BIND_REASONS: Readonly<Record<string, string>> = {
  '525': 'the bind DN names no account',
  '52e': 'the password is wrong',
  '530': 'the account may not sign in at this time of day',
  '531': 'the account may not sign in from this workstation',
  '532': 'the password of the account has expired',
  '533': 'the account is disabled',
  '701': 'the account has expired',
  '773': 'the password of the account must be changed before it can bind',
  '775': 'the account is locked out',
};

/** What the connector needs to open a connection. */
export interface ConnectOptions {
  config: LdapConfig;
  password: string;
  /** Where a relative `caFile` is resolved from; default the working directory. */
  baseDir?: string | undefined;
}

/** A bound connection; `close()` it when done. */
export interface Connection {
  readonly client: Client;
  /** `host:port` of the server, for messages. */
  readonly where: string;
  close(): Promise<void>;
}

function endpoint(url: string): { host: string; port: number; secure: boolean } {
  const parsed = new URL(url);
  const secure = parsed.protocol.toLowerCase() === 'ldaps:';
  // URL keeps the brackets of an IPv6 literal.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: parsed.port === '' ? (secure ? 636 : 389) : Number(parsed.port), secure };
}

async function tlsOptions(options: ConnectOptions, host: string): Promise<ConnectionOptions> {
  const tls: ConnectionOptions = { host, rejectUnauthorized: true };
  // SNI takes host names only.
  if (isIP(host) === 0) tls.servername = host;
  const { caFile } = options.config;
  if (caFile === undefined) return tls;
  const file = resolve(options.baseDir ?? process.cwd(), caFile);
  try {
    tls.ca = await readFile(file, 'utf8');
  } catch (error) {
    throw new OaaError<LdapErrorCode>(`caFile ${file} cannot be read: ${(error as Error).message}`, {
      code: 'CA_FILE_UNREADABLE',
      cause: error,
      details: { field: 'caFile' },
    });
  }
  return tls;
}

const CERTIFICATE_ERROR = /CERT|SIGNATURE|ISSUER|ALTNAME|SELF_SIGNED/;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The error of a connection that failed before or during TLS. */
function transportError(error: unknown, where: string, config: LdapConfig): OaaError<LdapErrorCode> {
  if (error instanceof OaaError) return error as OaaError<LdapErrorCode>;
  const code = errorCode(error);
  const message = (error as Error).message;
  if (code !== undefined && CERTIFICATE_ERROR.test(code)) {
    const { caFile } = config;
    return new OaaError<LdapErrorCode>(
      `the certificate of ${where} is not trusted: ${message} (${code})` +
        (caFile === undefined
          ? '; it is checked against the system CAs, as no caFile is set'
          : `; it is checked against caFile ${caFile}`),
      {
        code: 'TLS_CERTIFICATE_REJECTED',
        cause: error,
        details: { field: 'caFile', tlsError: code },
        hints: [
          code === 'ERR_TLS_CERT_ALTNAME_INVALID'
            ? 'the certificate does not name the host of url: connect by a name the certificate holds'
            : 'set caFile to the PEM file of the CA that signed the server certificate',
        ],
      },
    );
  }
  return new OaaError<LdapErrorCode>(`cannot reach the directory at ${where}: ${message}`, {
    code: 'SOURCE_UNREACHABLE',
    retryable: true,
    cause: error,
    details: { field: 'url', ...(code === undefined ? {} : { networkError: code }) },
  });
}

/** The AD reason code in a refused bind's diagnostic message (`data 52e`), if any. */
export function adBindReason(message: string): string | undefined {
  return /\bdata ([0-9a-f]{3,4})\b/i.exec(message)?.[1]?.toLowerCase();
}

/** The error of a refused bind, with the cause named. */
export function bindError(error: unknown, where: string, config: LdapConfig): OaaError<LdapErrorCode> {
  const message = (error as Error).message;
  if (error instanceof StrongAuthRequiredError || error instanceof ConfidentialityRequiredError) {
    return new OaaError<LdapErrorCode>(
      `${where} requires TLS for a simple bind (${error.name}): ${message}`,
      {
        code: 'TLS_REQUIRED',
        cause: error,
        details: { field: config.startTls ? 'url' : 'startTls' },
        hints: ['use an ldaps:// url, or set startTls: true (with caFile if the CA is private)'],
      },
    );
  }
  if (error instanceof InvalidCredentialsError || error instanceof InappropriateAuthError) {
    const reason = adBindReason(message);
    const said = reason === undefined ? undefined : AD_BIND_REASONS[reason];
    const cause =
      said ??
      'the password is wrong, the bind DN names no account, or the account may not bind (locked by the password policy, for one)';
    return new OaaError<LdapErrorCode>(
      `${where} refused the bind as "${config.bindDn}": ${cause}` +
        (reason === undefined ? '' : ` (Active Directory reason data ${reason})`),
      {
        code: 'SOURCE_CREDENTIALS_REFUSED',
        cause: error,
        details: {
          field: said === undefined || reason === '52e' ? PASSWORD_SECRET : 'bindDn',
          ...(reason === undefined ? {} : { adReason: reason }),
        },
        hints: [
          reason === '52e' || reason === undefined
            ? `check the secret "${PASSWORD_SECRET}" and bindDn`
            : 'ask the directory administrators to enable the account, or bind as another one',
        ],
      },
    );
  }
  if (error instanceof ResultCodeError) {
    // The server answered, and refused for a reason of its own (unwillingToPerform, say).
    return new OaaError<LdapErrorCode>(`${where} refused the bind as "${config.bindDn}": ${message}`, {
      code: 'SOURCE_CREDENTIALS_REFUSED',
      cause: error,
      details: { field: 'bindDn', resultCode: error.code },
    });
  }
  return transportError(error, where, config);
}

/** Connects (with TLS as configured) and binds as `bindDn`. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const { config } = options;
  const { host, port, secure } = endpoint(config.url);
  const where = config.url.replace(/\/+$/, '');
  if (options.password === '') {
    throw new OaaError<LdapErrorCode>(
      `the secret "${PASSWORD_SECRET}" is empty: a simple bind without a password is an anonymous bind, which the connector does not make`,
      { code: 'BIND_PASSWORD_EMPTY', details: { field: PASSWORD_SECRET } },
    );
  }
  const tls = secure || config.startTls ? await tlsOptions(options, host) : undefined;
  const client = new Client({
    url: `${secure ? 'ldaps' : 'ldap'}://${isIP(host) === 6 ? `[${host}]` : host}:${port}`,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    ...(secure && tls !== undefined ? { tlsOptions: tls } : {}),
  });
  const close = async (): Promise<void> => {
    await client.unbind().catch(() => undefined);
  };
  try {
    if (config.startTls) {
      try {
        await client.startTLS(tls);
      } catch (error) {
        // A server without StartTLS answers the extended operation with an LDAP error.
        if (error instanceof ResultCodeError) {
          throw new OaaError<LdapErrorCode>(`${where} does not offer StartTLS: ${(error as Error).message}`, {
            code: 'STARTTLS_UNAVAILABLE',
            cause: error,
            details: { field: 'startTls' },
            hints: ['use an ldaps:// url, or ask for TLS to be set up on the server'],
          });
        }
        throw transportError(error, where, config);
      }
    }
    try {
      await client.bind(config.bindDn, options.password);
    } catch (error) {
      throw bindError(error, where, config);
    }
  } catch (error) {
    await close();
    throw error instanceof OaaError ? error : transportError(error, where, config);
  }
  return { client, where, close };
}

/** Reads the rootDSE (the server's description of itself). */
export async function readRootDse(connection: Connection): Promise<Entry> {
  try {
    const { searchEntries } = await connection.client.search('', {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: ROOT_DSE_ATTRIBUTES,
    });
    const entry = searchEntries[0];
    if (entry === undefined) throw new Error('the server returned no rootDSE entry');
    return entry;
  } catch (error) {
    throw new OaaError<LdapErrorCode>(
      `cannot read the rootDSE of ${connection.where}: ${(error as Error).message}`,
      { code: 'SEARCH_FAILED', cause: error },
    );
  }
}

/** The flavour to use: the configured one, or for `auto` Active Directory when the rootDSE says so. */
export function detectFlavor(config: LdapConfig, rootDse: Entry): FlavorName {
  if (config.flavor !== 'auto') return config.flavor;
  return values(rootDse, 'supportedCapabilities').includes(AD_CAPABILITY) ? 'active-directory' : 'openldap';
}

/** `baseDn`, else the rootDSE's `defaultNamingContext`, else its first `namingContexts`. */
export function baseDnOf(config: LdapConfig, rootDse: Entry, where: string): string {
  const dn = config.baseDn ?? first(rootDse, 'defaultNamingContext') ?? values(rootDse, 'namingContexts')[0];
  if (dn === undefined || dn === '') {
    throw new OaaError<LdapErrorCode>(
      `${where} names no naming context in its rootDSE (defaultNamingContext, namingContexts)`,
      { code: 'BASE_DN_UNKNOWN', details: { field: 'baseDn' }, hints: ['set baseDn'] },
    );
  }
  return dn;
}

/** Throws `PAGING_UNSUPPORTED` when the rootDSE does not list the paged results control. */
export function assertPaging(rootDse: Entry, where: string): void {
  const controls = values(rootDse, 'supportedControl');
  // A server that hides its rootDSE from the bind account lists nothing: try, and let a search say.
  if (controls.length > 0 && !controls.includes(PAGED_RESULTS_CONTROL)) {
    throw new OaaError<LdapErrorCode>(
      `${where} does not support the simple paged results control (RFC 2696, ${PAGED_RESULTS_CONTROL}), ` +
        'without which a large directory cannot be read whole',
      { code: 'PAGING_UNSUPPORTED' },
    );
  }
}
