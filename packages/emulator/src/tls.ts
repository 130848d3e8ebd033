/** A self-signed certificate generated at start, for `tls: true`. */
import { isIP } from 'node:net';
import selfsigned from 'selfsigned';

/** Key and certificate (PEM) valid for localhost, the loopback addresses and `host`. */
export function selfSignedCertificate(host: string): { key: string; cert: string } {
  const altNames: { type: number; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (host !== 'localhost' && host !== '127.0.0.1' && host !== '::1' && host !== '0.0.0.0' && host !== '::') {
    altNames.push(isIP(host) ? { type: 7, ip: host } : { type: 2, value: host });
  }
  const pems = selfsigned.generate([{ name: 'commonName', value: 'oaakit emulator' }], {
    keySize: 2048,
    days: 30,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
