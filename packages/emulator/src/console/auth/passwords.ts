/**
 * Password hashing for console users: scrypt (node:crypto) with a random salt, stored as
 * `scrypt$N$r$p$salt$hash` so the cost can change without breaking stored hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const COST: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>> = { N: 16_384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** The stored form of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

// Checked against when the email is unknown, so a wrong email costs what a wrong password costs.
let dummy: Promise<string> | undefined;

/** Whether `password` matches `stored` (a `hashPassword` result); `undefined` spends the same time and is false. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const target = stored ?? (await (dummy ??= hashPassword('not a password of anyone')));
  const [scheme, n, r, p, salt, hash] = target.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return stored !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}
