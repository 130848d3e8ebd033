/**
 * Active Directory's value encodings, decoded exactly:
 *
 * - FILETIME: a 64-bit count of 100-nanosecond ticks since 1601-01-01 UTC, as a decimal string
 *   (`lastLogonTimestamp`, `pwdLastSet`, `accountExpires`, `lockoutTime`). It is read as a BigInt,
 *   because 2^63-1 and most real values are beyond a double's 53 exact bits.
 * - objectGUID: 16 bytes whose standard string form has its first three groups byte-reversed
 *   (little-endian) and the last two in order.
 * - objectSid: a binary SID, written `S-1-5-21-...`.
 * - userAccountControl and groupType: bit flags.
 *
 * Timestamps come out as RFC 3339 strings in UTC, with as many fractional-second digits as the
 * source carries (none when it has none), so nothing is rounded.
 */

/** FILETIME ticks from 1601-01-01 to the Unix epoch. */
const UNIX_EPOCH_TICKS = 116_444_736_000_000_000n;
const TICKS_PER_SECOND = 10_000_000n;
/** `accountExpires` and friends use the largest value, and 0, for "never". */
export const FILETIME_NEVER = 0x7fff_ffff_ffff_ffffn;
/** The last tick of 9999-12-31, the latest instant an RFC 3339 timestamp can show. */
const LAST_TICK_9999 = 2_650_467_743_999_999_999n;

/** Parses a FILETIME attribute value (a decimal integer); throws on anything else. */
export function parseFiletime(value: string): bigint {
  if (!/^-?\d{1,20}$/.test(value))
    throw new Error(`is not a FILETIME (a decimal integer): ${JSON.stringify(value)}`);
  const ticks = BigInt(value);
  if (ticks < -(2n ** 63n) || ticks > FILETIME_NEVER)
    throw new Error(`is not a FILETIME (a signed 64-bit integer): ${value}`);
  return ticks;
}

/** Whether a FILETIME means "never" (0, or 2^63-1), as `accountExpires` and `lastLogonTimestamp` use it. */
export function isNever(ticks: bigint): boolean {
  return ticks === 0n || ticks === FILETIME_NEVER;
}

/** An instant as RFC 3339 UTC: whole seconds since the epoch plus the fraction's decimal digits. */
function rfc3339(epochSeconds: bigint, fractionDigits: string): string {
  const whole = new Date(Number(epochSeconds) * 1000).toISOString().slice(0, 19);
  const fraction = fractionDigits.replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`}Z`;
}

/**
 * A FILETIME as an RFC 3339 timestamp, exact to the 100 ns tick; `undefined` for 0 and 2^63-1
 * ("never"). Throws for negative values (intervals, not instants) and for instants after the year
 * 9999, which RFC 3339 cannot write.
 */
export function filetimeToIso(ticks: bigint): string | undefined {
  if (isNever(ticks)) return undefined;
  if (ticks < 0n) throw new Error(`is negative (${ticks}): a FILETIME instant counts up from 1601`);
  if (ticks > LAST_TICK_9999) throw new Error(`is after the year 9999 (${ticks} ticks)`);
  const sinceEpoch = ticks - UNIX_EPOCH_TICKS;
  // Floor division, also for instants before 1970.
  let seconds = sinceEpoch / TICKS_PER_SECOND;
  let rest = sinceEpoch % TICKS_PER_SECOND;
  if (rest < 0n) {
    seconds -= 1n;
    rest += TICKS_PER_SECOND;
  }
  return rfc3339(seconds, rest.toString().padStart(7, '0'));
}

/** The FILETIME of a JavaScript instant (millisecond precision). */
export function dateToFiletime(date: Date): bigint {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new Error('is not a valid date');
  return BigInt(ms) * 10_000n + UNIX_EPOCH_TICKS;
}

/** `accountExpires`: whether the account has expired at `now` (0 and 2^63-1 never expire). */
export function isExpired(accountExpires: bigint, now: Date): boolean {
  return !isNever(accountExpires) && accountExpires <= dateToFiletime(now);
}

/** The standard string form of a 16-byte objectGUID: `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lower case. */
export function guidToString(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new Error(`is not a GUID: ${bytes.length} bytes instead of 16`);
  const hex = (from: number, to: number, reverse: boolean): string => {
    const part = Array.from(bytes.subarray(from, to), (b) => b.toString(16).padStart(2, '0'));
    return (reverse ? part.reverse() : part).join('');
  };
  return [hex(0, 4, true), hex(4, 6, true), hex(6, 8, true), hex(8, 10, false), hex(10, 16, false)].join('-');
}

/** The 16 bytes of a GUID in its standard string form (the inverse of {@link guidToString}). */
export function guidToBytes(guid: string): Buffer {
  const m = /^\{?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}?$/i.exec(guid);
  if (!m) throw new Error(`is not a GUID string: ${JSON.stringify(guid)}`);
  const part = (i: number, reverse: boolean): Buffer => {
    const b = Buffer.from(m[i]!, 'hex');
    return reverse ? b.reverse() : b;
  };
  return Buffer.concat([part(1, true), part(2, true), part(3, true), part(4, false), part(5, false)]);
}

/**
 * A binary SID as `S-<revision>-<authority>-<sub-authority>...`. The 48-bit identifier authority is
 * big-endian (written in hex when it does not fit 32 bits, as Windows does); the sub-authorities are
 * 32-bit little-endian.
 */
export function sidToString(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new Error(`is not a SID: ${bytes.length} bytes, fewer than 8`);
  const count = bytes[1]!;
  if (bytes.length !== 8 + 4 * count)
    throw new Error(
      `is not a SID: ${bytes.length} bytes for ${count} sub-authorities (expected ${8 + 4 * count})`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const authority = view.getUint16(2) * 2 ** 32 + view.getUint32(4);
  const parts = [
    'S',
    String(bytes[0]),
    authority < 2 ** 32 ? String(authority) : `0x${authority.toString(16).toUpperCase().padStart(12, '0')}`,
  ];
  for (let i = 0; i < count; i++) parts.push(String(view.getUint32(8 + 4 * i, true)));
  return parts.join('-');
}

const SID = /^S-\d+-(?:\d+|0x[0-9A-F]{12})(?:-\d+)+$/i;

/** The SID one level up: a user's or group's SID without its last part (the RID) is its domain's SID. */
export function domainSidOf(sid: string): string {
  if (!SID.test(sid)) throw new Error(`is not a SID with a relative id: ${JSON.stringify(sid)}`);
  return sid.slice(0, sid.lastIndexOf('-'));
}

/** The SID of a domain-relative id: `primaryGroupID` 513 in domain `S-1-5-21-a-b-c` is `S-1-5-21-a-b-c-513`. */
export function sidOfRid(domainSid: string, rid: number): string {
  if (!Number.isInteger(rid) || rid < 0 || rid > 0xffff_ffff) throw new Error(`is not a relative id: ${rid}`);
  return `${domainSid}-${rid}`;
}

/** The userAccountControl bits (MS-ADTS 2.2.16), by their Windows names. */
export const UAC = {
  SCRIPT: 0x1,
  ACCOUNTDISABLE: 0x2,
  HOMEDIR_REQUIRED: 0x8,
  LOCKOUT: 0x10,
  PASSWD_NOTREQD: 0x20,
  PASSWD_CANT_CHANGE: 0x40,
  ENCRYPTED_TEXT_PWD_ALLOWED: 0x80,
  TEMP_DUPLICATE_ACCOUNT: 0x100,
  NORMAL_ACCOUNT: 0x200,
  INTERDOMAIN_TRUST_ACCOUNT: 0x800,
  WORKSTATION_TRUST_ACCOUNT: 0x1000,
  SERVER_TRUST_ACCOUNT: 0x2000,
  DONT_EXPIRE_PASSWORD: 0x1_0000,
  MNS_LOGON_ACCOUNT: 0x2_0000,
  SMARTCARD_REQUIRED: 0x4_0000,
  TRUSTED_FOR_DELEGATION: 0x8_0000,
  NOT_DELEGATED: 0x10_0000,
  USE_DES_KEY_ONLY: 0x20_0000,
  DONT_REQ_PREAUTH: 0x40_0000,
  PASSWORD_EXPIRED: 0x80_0000,
  TRUSTED_TO_AUTH_FOR_DELEGATION: 0x100_0000,
  PARTIAL_SECRETS_ACCOUNT: 0x400_0000,
} as const;

export type UacFlag = keyof typeof UAC;

/** Parses a 32-bit flags attribute (`userAccountControl`, `groupType`), signed or not, as unsigned. */
export function parseFlags(value: string): number {
  if (!/^-?\d{1,10}$/.test(value)) throw new Error(`is not a 32-bit integer: ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < -(2 ** 31) || n > 0xffff_ffff) throw new Error(`is not a 32-bit integer: ${value}`);
  return n >>> 0;
}

/** The names of the userAccountControl bits set in `uac`, in bit order; unknown bits are left out. */
export function uacFlags(uac: number): UacFlag[] {
  return (Object.keys(UAC) as UacFlag[]).filter((name) => (uac & UAC[name]) !== 0);
}

/** The scope of an AD group: where its members may come from and where it may be used. */
export type GroupScope = 'global' | 'domain_local' | 'universal';

/** A decoded `groupType`. */
export interface GroupType {
  /** Security group (bit 0x80000000): it can hold permissions. Otherwise a distribution group (mail only). */
  security: boolean;
  /** Global (0x2), domain local (0x4) or universal (0x8); unset for none (AD never writes that). */
  scope?: GroupScope;
  /** Created by the system (0x1), such as the Builtin groups. */
  system: boolean;
}

/** Decodes `groupType` (MS-ADTS 2.2.12), given as the signed 32-bit integer AD stores. */
export function parseGroupType(value: string): GroupType {
  const bits = parseFlags(value);
  const scope: GroupScope | undefined =
    bits & 0x2 ? 'global' : bits & 0x4 ? 'domain_local' : bits & 0x8 ? 'universal' : undefined;
  return {
    security: (bits & 0x8000_0000) !== 0,
    system: (bits & 0x1) !== 0,
    ...(scope !== undefined && { scope }),
  };
}
