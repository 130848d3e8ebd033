/**
 * `/_emulator/api_keys` (admin): create a key (answered once, never again), list keys (prefix only),
 * revoke and reinstate a key, delete a key. What the service's administration interface does for API
 * keys; each change records its API_KEY_* event (category SYSTEM, the key as entity id and name).
 * At most `limits.maxApiKeys` keys are stored, revoked ones included (a revoked key keeps its row
 * until it is deleted): creating one past it is a 400 saying to delete one.
 */
import type { FastifyInstance } from 'fastify';
import {
  countKeys,
  createKey,
  deleteKey,
  getKey,
  isRole,
  listKeys,
  reinstateKey,
  revokeKey,
  ROLES,
  type ApiKeyRecord,
} from '../auth/api-keys.js';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { recordEvent } from '../store/events.js';

const VERBS = {
  API_KEY_CREATED: 'created',
  API_KEY_DELETED: 'deleted',
  API_KEY_REVOKED: 'revoked',
  API_KEY_REINSTATED: 'reinstated',
} as const;

function recordKeyEvent(ctx: EmulatorContext, type: keyof typeof VERBS, key: ApiKeyRecord): void {
  const verb = VERBS[type];
  recordEvent(ctx.db, {
    timestamp: ctx.clock.iso(),
    category: 'SYSTEM',
    severity: 'INFO',
    name: `API key ${verb}`,
    message: `API key ${key.name} (${key.role}, ${key.prefix}...) was ${verb}`,
    provider_id: null,
    entity: null,
    entity_id: key.id,
    entity_name: key.name,
    event_type: type,
    error: null,
  });
}

function requireKey(ctx: EmulatorContext, id: string): ApiKeyRecord {
  const key = getKey(ctx.db, id);
  if (!key) throw notFound('api_key', id);
  return key;
}

/** Registers the API key administration routes. */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/api_keys', allow(ADMIN), (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw badField('body', 'must be a JSON object');
    const role = body.role ?? 'member';
    if (!isRole(role)) throw badField('role', `must be one of ${ROLES.join(', ')}`);
    const name = body.name ?? `${role} key`;
    if (typeof name !== 'string' || name.trim() === '') throw badField('name', 'must be a non-empty string');
    if (name.length > 256) throw badField('name', 'must be at most 256 characters');
    const max = ctx.limits.maxApiKeys;
    return ctx.db.transaction(() => {
      if (countKeys(ctx.db) >= max)
        throw badField(
          'body',
          `at most ${max} API keys may be stored, revoked ones included: delete one first (DELETE /_emulator/api_keys/{id})`,
        );
      const { record, key } = createKey(ctx.db, { role, name, createdAt: ctx.clock.iso() });
      recordKeyEvent(ctx, 'API_KEY_CREATED', record);
      return { value: { ...record, key } };
    })();
  });

  app.get('/_emulator/api_keys', allow(ADMIN), () => ({ values: listKeys(ctx.db) }));

  app.post<{ Params: { id: string } }>('/_emulator/api_keys/:id/revoke', allow(ADMIN), (req) => {
    const key = requireKey(ctx, req.params.id);
    revokeKey(ctx.db, key.id, ctx.clock.iso());
    if (key.revoked_at === null) recordKeyEvent(ctx, 'API_KEY_REVOKED', key);
    return { value: getKey(ctx.db, key.id) };
  });

  app.post<{ Params: { id: string } }>('/_emulator/api_keys/:id/reinstate', allow(ADMIN), (req) => {
    const key = requireKey(ctx, req.params.id);
    reinstateKey(ctx.db, key.id);
    if (key.revoked_at !== null) recordKeyEvent(ctx, 'API_KEY_REINSTATED', key);
    return { value: getKey(ctx.db, key.id) };
  });

  app.delete<{ Params: { id: string } }>('/_emulator/api_keys/:id', allow(ADMIN), (req) => {
    const key = requireKey(ctx, req.params.id);
    deleteKey(ctx.db, key.id);
    recordKeyEvent(ctx, 'API_KEY_DELETED', key);
    return {};
  });
}
