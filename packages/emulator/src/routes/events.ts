/**
 * The events API: `GET /api/preview/events` (SCIM-filtered list) and `GET /api/v1/events/export`
 * (continuous log). Any active key may read them (the spec names no role). See events/event-pages.ts.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { exportEventsPage, listEventsPage } from '../events/event-pages.js';

type EventsQuery = { filter?: unknown; page_size?: unknown; page_token?: unknown };

/** Registers the events routes. */
export function registerEventRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: EventsQuery }>('/api/preview/events', allow(ANY_KEY), (req) =>
    listEventsPage(ctx.db, req.query, ctx.clock.nowMs()),
  );
  app.get<{ Querystring: EventsQuery }>('/api/v1/events/export', allow(ANY_KEY), (req) =>
    exportEventsPage(ctx.db, req.query, ctx.clock.nowMs()),
  );
}
