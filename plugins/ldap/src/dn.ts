/**
 * Distinguished names compared as a directory compares them. A group's `member` value and the DN a
 * search returns for the same entry may differ in case, in spacing and in how special characters
 * are escaped (`\,` or `\2C`); the normalised form makes them equal. Attribute values compare
 * without case, as the naming attributes of users and groups (cn, uid, ou, dc) do.
 */

const HEX = /^[0-9a-fA-F]{2}$/;
/** What only a parse normalises: escapes, quotes, `+` and `;` separators, `#` values, spaces at separators. */
const SPECIAL = /[\\+";#<>]|\s[,=]|[,=]\s|^\s|\s$|=$|^=|,,|^,|,$/;

function count(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/** One RDN component: `type=value` with the value unescaped. */
interface Ava {
  type: string;
  value: string;
}

/**
 * Splits `dn` into RDNs, each a list of type/value pairs with the values unescaped (RFC 4514);
 * undefined when it is not a DN.
 */
export function parseDn(dn: string): Ava[][] | undefined {
  const rdns: Ava[][] = [];
  let rdn: Ava[] = [];
  let i = 0;
  const n = dn.length;
  const skipSpaces = (): void => {
    while (i < n && dn[i] === ' ') i++;
  };
  skipSpaces();
  if (i === n) return [];
  for (;;) {
    skipSpaces();
    const typeStart = i;
    while (i < n && dn[i] !== '=') i++;
    if (i === n) return undefined;
    const type = dn.slice(typeStart, i).trim().toLowerCase();
    if (type === '') return undefined;
    i++; // '='
    skipSpaces();
    let value = '';
    if (dn[i] === '#') {
      // A BER-encoded value, kept as its hex text.
      const start = i;
      while (i < n && dn[i] !== ',' && dn[i] !== '+' && dn[i] !== ';') i++;
      value = dn.slice(start, i).trim().toLowerCase();
    } else {
      let bytes: number[] = [];
      let trailingSpaces = 0;
      const flush = (): void => {
        if (bytes.length > 0) value += Buffer.from(bytes).toString('utf8');
        bytes = [];
      };
      while (i < n) {
        const c = dn[i]!;
        if (c === ',' || c === '+' || c === ';') break;
        if (c === '\\') {
          const pair = dn.slice(i + 1, i + 3);
          if (HEX.test(pair)) {
            bytes.push(parseInt(pair, 16));
            i += 3;
          } else if (i + 1 < n) {
            flush();
            value += dn[i + 1];
            i += 2;
          } else return undefined;
          trailingSpaces = 0;
          continue;
        }
        flush();
        value += c;
        trailingSpaces = c === ' ' ? trailingSpaces + 1 : 0;
        i++;
      }
      flush();
      // Unescaped trailing spaces are not part of the value.
      if (trailingSpaces > 0) value = value.slice(0, value.length - trailingSpaces);
    }
    rdn.push({ type, value });
    if (i === n) {
      rdns.push(rdn);
      return rdns;
    }
    if (dn[i] === '+') {
      i++;
      continue;
    }
    rdns.push(rdn);
    rdn = [];
    i++; // ',' or ';'
  }
}

function escapeValue(value: string): string {
  let out = value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`);
  // A leading space or '#', and a trailing space, each escaped once (a lone space is both).
  if (/^[ #]/.test(out)) out = `\\${out}`;
  if (out.endsWith(' ') && out !== '\\ ') out = `${out.slice(0, -1)}\\ `;
  return out;
}

/**
 * The normalised form of `dn`: types and values lower-cased, values unescaped then escaped one
 * way, no spaces around separators, the components of a multi-valued RDN sorted. A string that is
 * not a DN is returned lower-cased and trimmed, so that it still equals itself.
 *
 * @example
 * normalizeDn('CN=Smith\\2C John, OU=People,DC=corp') === normalizeDn('cn=smith\\, john,ou=people,dc=corp')
 */
export function normalizeDn(dn: string): string {
  // Most DNs have no escapes, no multi-valued RDNs and no spaces around separators: lower-casing
  // them is all it takes, without the garbage of a parse (a run normalises every member value).
  if (!SPECIAL.test(dn) && count(dn, '=') === count(dn, ',') + 1) return dn.toLowerCase();
  const rdns = parseDn(dn);
  if (rdns === undefined) return dn.trim().toLowerCase();
  return rdns
    .map((rdn) =>
      rdn
        .map((ava) => `${ava.type}=${escapeValue(ava.value.toLowerCase())}`)
        .sort()
        .join('+'),
    )
    .join(',');
}

/** Whether the normalised DN `dn` is `base` or below it. */
export function isUnder(dn: string, base: string): boolean {
  return base === '' || dn === base || dn.endsWith(`,${base}`);
}

/**
 * The DNS-style name of a naming context: its `dc` components joined by dots
 * (`dc=corp,dc=example` -> `corp.example`), else the naming context itself.
 */
export function dnsName(namingContext: string): string {
  const rdns = parseDn(namingContext) ?? [];
  const labels = rdns.flatMap((rdn) => rdn.filter((a) => a.type === 'dc').map((a) => a.value));
  return labels.length > 0 && labels.length === rdns.length ? labels.join('.').toLowerCase() : namingContext;
}
