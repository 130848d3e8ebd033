/** Bearer authentication and the role each path needs. */
import type { Db } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { roleOfKey, type Role } from './api-keys.js';

const ANY: readonly Role[] = ['admin', 'system_monitoring', 'member'];
const PRIVATE: readonly Role[] = ['admin', 'system_monitoring'];
const ADMIN: readonly Role[] = ['admin'];

/** Roles allowed on `path`, or undefined when the path needs no API key. */
export function rolesFor(path: string): readonly Role[] | undefined {
  if (path.startsWith('/_emulator/') || path === '/_emulator') return ADMIN;
  if (path.startsWith('/api/private/')) return PRIVATE;
  if (path.startsWith('/api/') || path === '/api') return ANY;
  return undefined;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Checks the `Authorization` header against `path`; throws 401 or 403 in the spec's error body. */
export function authorize(db: Db, path: string, authorization: string | undefined): void {
  const allowed = rolesFor(path);
  if (allowed === undefined) return;
  if (authorization === undefined || authorization === '') {
    throw new ApiError('Unauthenticated', {
      message: 'missing Authorization header: send "Authorization: Bearer <API_KEY>"',
    });
  }
  const match = BEARER.exec(authorization);
  if (!match)
    throw new ApiError('Unauthenticated', { message: 'the Authorization header must be "Bearer <API_KEY>"' });
  const role = roleOfKey(db, match[1]!);
  if (role === undefined)
    throw new ApiError('Unauthenticated', { message: 'the API key is invalid or revoked' });
  if (!allowed.includes(role)) {
    throw new ApiError('PermissionDenied', {
      message: `role ${role} may not call ${path}; allowed: ${allowed.join(', ')}`,
    });
  }
}
