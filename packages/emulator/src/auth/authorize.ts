/** Bearer authentication against the roles a route declares (see route-access.ts). */
import type { Db } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { roleOfKey } from './api-keys.js';
import type { RouteAccess } from './route-access.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Checks the `Authorization` header against `access`; throws 401 or 403 in the spec's error body.
 * `what` names the call in the 403 message, e.g. `POST /_emulator/api_keys`.
 */
export function authorize(
  db: Db,
  access: RouteAccess,
  authorization: string | undefined,
  what: string,
): void {
  if (access === 'public') return;
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
  if (!access.includes(role)) {
    throw new ApiError('PermissionDenied', {
      message: `role ${role} may not call ${what}; allowed: ${access.join(', ')}`,
    });
  }
}
