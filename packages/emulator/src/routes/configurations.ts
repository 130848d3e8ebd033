/**
 * Private configuration endpoints (admin or system_monitoring keys): the identity-provider user
 * property used to match single-sign-on activity to local users.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN_OR_MONITORING } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField } from '../errors.js';

const BASE = '/api/private/namespaces/integrations/configurations';
const MATCHING_PROPERTY = 'idp_sso_user_matching_property';

/** Registers the configuration routes. */
export function registerConfigurationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.put(`${BASE}/${MATCHING_PROPERTY}`, allow(ADMIN_OR_MONITORING), (req) => {
    const b = req.body as Record<string, unknown> | undefined;
    if (!b || typeof b !== 'object' || typeof b.value !== 'string' || b.value.trim() === '') {
      throw badField(
        'value',
        'must name the identity-provider user property used as the join key (e.g. login, email)',
      );
    }
    ctx.db
      .prepare(
        'INSERT INTO configurations (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(MATCHING_PROPERTY, b.value);
    return {};
  });
  app.get(BASE, allow(ADMIN_OR_MONITORING), () => {
    const values = ctx.db
      .prepare<[], { key: string; value: string }>('SELECT key, value FROM configurations ORDER BY key')
      .all();
    return { values, next_page_token: '', has_more: false };
  });
}
