/**
 * `/_emulator/api_keys` (admin): create a key (answered once, never again), list keys (prefix only),
 * revoke a key. What the service's administration interface does for API keys.
 */
import type { FastifyInstance } from 'fastify';
import { createKey, isRole, listKeys, revokeKey, ROLES } from '../auth/api-keys.js';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';

/** Registers the API key administration routes. */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/api_keys', allow(ADMIN), (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw badField('body', 'must be a JSON object');
    const role = body.role ?? 'member';
    if (!isRole(role)) throw badField('role', `must be one of ${ROLES.join(', ')}`);
    const name = body.name ?? `${role} key`;
    if (typeof name !== 'string' || name.trim() === '') throw badField('name', 'must be a non-empty string');
    const { record, key } = createKey(ctx.db, { role, name, createdAt: ctx.clock.iso() });
    return { value: { ...record, key } };
  });

  app.get('/_emulator/api_keys', allow(ADMIN), () => ({ values: listKeys(ctx.db) }));

  app.delete<{ Params: { id: string } }>('/_emulator/api_keys/:id', allow(ADMIN), (req) => {
    if (!revokeKey(ctx.db, req.params.id, ctx.clock.iso())) throw notFound('api_key', req.params.id);
    return {};
  });
}
