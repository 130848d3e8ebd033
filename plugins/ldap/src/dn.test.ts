import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dnsName, isUnder, normalizeDn, parseDn } from './dn.js';

describe('normalizeDn', () => {
  it('makes DNs that name the same entry equal: case, spaces, escapes', () => {
    const same = [
      'uid=mokafor,ou=people,dc=corp,dc=example',
      'UID=mokafor, OU=People, DC=corp, DC=example',
      'uid = MOKAFOR ,ou=people , dc=corp,dc=example',
    ];
    expect(new Set(same.map(normalizeDn)).size).toBe(1);
    expect(normalizeDn("cn=O'Brien\\2C Sean,ou=people,dc=corp")).toBe(
      normalizeDn("CN=O'Brien\\, Sean,OU=People,DC=corp"),
    );
    // UTF-8 written as hex escapes, and as itself.
    expect(normalizeDn('cn=Tom\\C3\\A1s,dc=x')).toBe(normalizeDn('cn=Tomás,dc=x'));
    // The order of a multi-valued RDN does not matter.
    expect(normalizeDn('cn=a+uid=b,dc=x')).toBe(normalizeDn('uid=b+cn=a,dc=x'));
  });

  it('gives a DN the form of the same DN with a character written as a hex escape', () => {
    const value = fc.string({ unit: fc.constantFrom(...'aBz09 .-_=<>,+#;"\\é'), minLength: 1, maxLength: 8 });
    const rdn = fc.tuple(fc.constantFrom('cn', 'UID', 'ou', 'dc'), value);
    fc.assert(
      fc.property(fc.array(rdn, { minLength: 1, maxLength: 4 }), fc.nat(), (rdns, pick) => {
        // Each value escaped as RFC 4514 says, then one character of one value as \XX.
        const escape = (v: string) => {
          let out = v.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`);
          if (/^[ #]/.test(out)) out = `\\${out}`;
          if (out.endsWith(' ') && out !== '\\ ') out = `${out.slice(0, -1)}\\ `;
          return out;
        };
        const dn = rdns.map(([t, v]) => `${t}=${escape(v)}`).join(',');
        const at = pick % rdns.length;
        const [t, v] = rdns[at]!;
        const hex = [...Buffer.from(v[0]!, 'utf8')]
          .map((b) => `\\${b.toString(16).padStart(2, '0')}`)
          .join('');
        const other = rdns
          .map(([t2, v2], i) => (i === at ? `${t}=${hex}${escape(v.slice(1))}` : `${t2}=${escape(v2)}`))
          .join(',');
        expect(normalizeDn(other)).toBe(normalizeDn(dn));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps apart DNs that differ', () => {
    expect(normalizeDn('cn=a\\,b,dc=x')).not.toBe(normalizeDn('cn=a,cn=b,dc=x'));
    expect(normalizeDn('cn=a\\+b,dc=x')).not.toBe(normalizeDn('cn=a+cn=b,dc=x'));
    expect(normalizeDn("uid=a,dc=x#'0101'B")).not.toBe(normalizeDn('uid=a,dc=x'));
    expect(normalizeDn('cn=a\\ ,dc=x')).not.toBe(normalizeDn('cn=a,dc=x'));
  });

  it('parses escaped values, and refuses what is not a DN', () => {
    expect(parseDn('cn=a\\,b+sn=c,dc=x')).toEqual([
      [
        { type: 'cn', value: 'a,b' },
        { type: 'sn', value: 'c' },
      ],
      [{ type: 'dc', value: 'x' }],
    ]);
    expect(parseDn('')).toEqual([]);
    expect(parseDn('no equals sign')).toBeUndefined();
    expect(parseDn('cn=trailing\\')).toBeUndefined();
  });
});

describe('isUnder and dnsName', () => {
  it('tell a DN under a base, and the DNS name of a naming context', () => {
    expect(isUnder('uid=a,dc=corp,dc=example', 'dc=corp,dc=example')).toBe(true);
    expect(isUnder('dc=corp,dc=example', 'dc=corp,dc=example')).toBe(true);
    expect(isUnder('uid=a,dc=notcorp,dc=example', 'dc=corp,dc=example')).toBe(false);
    expect(dnsName('DC=Corp,DC=Example')).toBe('corp.example');
    expect(dnsName('o=Corp Example,c=US')).toBe('o=Corp Example,c=US');
  });
});
