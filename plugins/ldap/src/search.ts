/**
 * Paged searches (RFC 2696, the simple paged results control): every read of users and groups goes
 * page by page, so no server limit on the entries of one answer can cut it short unnoticed. A
 * limit that stops a read anyway (OpenLDAP's default of 500 entries for a bind account without a
 * `limits` line) is an error that names the limit to raise; the connector never pushes part of a
 * directory. Continuation references (referrals to other servers) are collected, not followed.
 */
import { OaaError } from '@oaakit/core';
import {
  AdminLimitExceededError,
  InsufficientAccessError,
  InvalidDNSyntaxError,
  NoSuchObjectError,
  ResultCodeError,
  SizeLimitExceededError,
  TimeLimitExceededError,
  UnavailableCriticalExtensionError,
  type Client,
  type Entry,
} from 'ldapts';
import type { LdapErrorCode } from './error-codes.js';
import type { FlavorName } from './flavor.js';

/** LDAP result code `referral`: the base of the search is held by another server. */
const REFERRAL = 10;

/** What a paged search reads, and what its errors name. */
export interface PagedSearchOptions {
  /** What is read, for messages: `users`, `groups`. */
  what: string;
  base: string;
  filter: string;
  attributes: readonly string[];
  /** Attributes read as buffers. */
  binaryAttributes: readonly string[];
  pageSize: number;
  signal: AbortSignal;
  /** For the messages of limits: whose limit it is, on which product. */
  bindDn: string;
  flavor: FlavorName;
  where: string;
  /** Called with each continuation reference (an LDAP URL) the server returns instead of entries. */
  onReferral(url: string): void;
}

/** The `limits` line that lifts OpenLDAP's limit on paged searches for `bindDn`. */
export function openLdapLimitsLine(bindDn: string): string {
  return `limits dn.exact="${bindDn.replace(/"/g, '\\"')}" size.prtotal=unlimited`;
}

function limitError(error: ResultCodeError, o: PagedSearchOptions, read: number): OaaError<LdapErrorCode> {
  const stopped = `${o.where} stopped the paged read of ${o.what} after ${read} entries`;
  const never = 'the connector pushes nothing rather than part of the directory';
  if (error instanceof TimeLimitExceededError) {
    return new OaaError<LdapErrorCode>(
      `${stopped}: a time limit for "${o.bindDn}" was reached (timeLimitExceeded); ${never}`,
      {
        code: 'SERVER_LIMIT_EXCEEDED',
        cause: error,
        details: { limit: 'time', what: o.what, read },
        hints: [
          o.flavor === 'openldap'
            ? `raise the time limit of the bind account in slapd's config: limits dn.exact="${o.bindDn}" time=unlimited`
            : 'raise the MaxQueryDuration LDAP policy (ntdsutil), or read less per run with a narrower baseDn',
        ],
      },
    );
  }
  const admin = error instanceof AdminLimitExceededError;
  return new OaaError<LdapErrorCode>(
    `${stopped}: the server's ${admin ? 'administrative limit' : 'size limit'} for "${o.bindDn}" is lower than ` +
      `the number of ${o.what} (${admin ? 'adminLimitExceeded' : 'sizeLimitExceeded'}); ${never}`,
    {
      code: 'SERVER_LIMIT_EXCEEDED',
      cause: error,
      details: { limit: admin ? 'admin' : 'size', what: o.what, read },
      hints:
        o.flavor === 'openldap'
          ? [
              `lift the limit on paged searches for the bind account: add to the database's section of slapd.conf ` +
                `(or olcLimits in cn=config) ${openLdapLimitsLine(o.bindDn)}`,
            ]
          : [
              'raise the MaxPageSize and MaxResultSetSize LDAP policies (ntdsutil "ldap policies"), ' +
                'or lower pageSize to at most MaxPageSize',
            ],
    },
  );
}

/** The error of a failed page, with the cause named. */
function searchError(error: unknown, o: PagedSearchOptions, read: number): unknown {
  if (o.signal.aborted) return o.signal.reason;
  if (
    error instanceof SizeLimitExceededError ||
    error instanceof AdminLimitExceededError ||
    error instanceof TimeLimitExceededError
  )
    return limitError(error, o, read);
  const message = (error as Error).message;
  if (error instanceof UnavailableCriticalExtensionError) {
    return new OaaError<LdapErrorCode>(
      `${o.where} refused the paged results control (RFC 2696) on the read of ${o.what}: ${message}`,
      { code: 'PAGING_UNSUPPORTED', cause: error },
    );
  }
  if (error instanceof NoSuchObjectError) {
    return new OaaError<LdapErrorCode>(
      `baseDn "${o.base}" does not exist on ${o.where}, or "${o.bindDn}" may not see it`,
      { code: 'BASE_DN_UNKNOWN', cause: error, details: { field: 'baseDn' } },
    );
  }
  if (error instanceof InsufficientAccessError) {
    return new OaaError<LdapErrorCode>(
      `"${o.bindDn}" may not read the ${o.what} under "${o.base}": ${message}`,
      {
        code: 'ACCESS_DENIED',
        cause: error,
        details: { field: 'bindDn' },
      },
    );
  }
  if (error instanceof ResultCodeError) {
    const referral = error.code === REFERRAL;
    return new OaaError<LdapErrorCode>(
      referral
        ? `baseDn "${o.base}" is held by another server (the answer is a referral), which the connector does not follow`
        : `the read of ${o.what} under "${o.base}" failed: ${message}`,
      {
        code: 'SEARCH_FAILED',
        cause: error,
        details: { resultCode: error.code, what: o.what, ...(referral ? { field: 'baseDn' } : {}) },
        ...(referral ? { hints: ['set url to the server that holds baseDn'] } : {}),
      },
    );
  }
  // The connection dropped, or an operation outlived timeoutMs.
  return new OaaError<LdapErrorCode>(
    `the read of ${o.what} from ${o.where} failed after ${read} entries: ${message}`,
    { code: 'SOURCE_UNREACHABLE', retryable: true, cause: error, details: { what: o.what, read } },
  );
}

/**
 * The entries under `base` that match `filter`, a page at a time. Throws (between pages) the
 * error of a failed page, a limit that stopped the read among them, or the signal's reason.
 */
export async function* pagedSearch(client: Client, o: PagedSearchOptions): AsyncGenerator<Entry[]> {
  o.signal.throwIfAborted();
  const pages = client.searchPaginated(o.base, {
    scope: 'sub',
    filter: o.filter,
    attributes: [...o.attributes],
    explicitBufferAttributes: [...o.binaryAttributes],
    paged: { pageSize: o.pageSize },
  });
  let read = 0;
  for (;;) {
    let page: IteratorResult<{ searchEntries: Entry[]; searchReferences: string[] }>;
    try {
      page = await pages.next();
    } catch (error) {
      throw searchError(error, o, read);
    }
    o.signal.throwIfAborted();
    if (page.done === true) return;
    for (const url of page.value.searchReferences) o.onReferral(url);
    read += page.value.searchEntries.length;
    yield page.value.searchEntries;
  }
}

/** The one entry at `dn` that matches `filter`, or undefined when there is none (or no such entry). */
export async function readEntry(
  client: Client,
  dn: string,
  filter: string,
  attributes: readonly string[],
  binaryAttributes: readonly string[],
): Promise<Entry | undefined> {
  try {
    const { searchEntries } = await client.search(dn, {
      scope: 'base',
      filter,
      attributes: [...attributes],
      explicitBufferAttributes: [...binaryAttributes],
    });
    return searchEntries[0];
  } catch (error) {
    // No such entry, a value that is no DN, or an entry held by another server: none here.
    if (
      error instanceof NoSuchObjectError ||
      error instanceof InvalidDNSyntaxError ||
      (error instanceof ResultCodeError && error.code === REFERRAL)
    )
      return undefined;
    throw error;
  }
}
