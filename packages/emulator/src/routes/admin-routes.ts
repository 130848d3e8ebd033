/**
 * `/_emulator/routes` (admin): every route the emulator serves and who may call it, as declared with
 * `allow(...)`. Lets a test (ours: auth/route-access.test.ts) walk every route without a list of
 * its own going stale.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN, declaredRoutes } from '../auth/route-access.js';

/** Registers the route listing. */
export function registerRouteListRoutes(app: FastifyInstance): void {
  app.get('/_emulator/routes', allow(ADMIN), () => ({ values: declaredRoutes(app) }));
}
