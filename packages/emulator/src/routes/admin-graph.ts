/**
 * `/_emulator/graph/...` and `/_emulator/events` (admin): read-only views of the graph store and the
 * stored events (within the events API's 90-day retention), for tests and debugging.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField } from '../errors.js';
import { purgeExpiredEvents } from '../events/event-pages.js';
import { graphStats, readEdges, readNodes, type ReadOptions } from '../graph/read-graph.js';
import { listEvents } from '../store/events.js';

type Query = Record<string, unknown>;

export function text(q: Query, name: string, required: true): string;
export function text(q: Query, name: string, required?: false): string | undefined;
export function text(q: Query, name: string, required = false): string | undefined {
  const v = q[name];
  if (v === undefined || v === '') {
    if (required) throw badField(name, 'is required');
    return undefined;
  }
  if (typeof v !== 'string') throw badField(name, 'must be given once');
  return v;
}

export function count(q: Query, name: string, fallback: number, max: number): number {
  const v = text(q, name);
  if (v === undefined) return fallback;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n > max) throw badField(name, `must be an integer from 0 to ${max}`);
  return n;
}

function readOptions(q: Query, only: string): ReadOptions {
  return {
    limit: count(q, 'limit', 1000, 100_000),
    offset: count(q, 'offset', 0, Number.MAX_SAFE_INTEGER),
    only: text(q, only),
  };
}

/** Registers the graph and event views. */
export function registerGraphRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: Query }>('/_emulator/graph/stats', allow(ADMIN), (req) =>
    graphStats(ctx.db, text(req.query, 'data_source_id', true)),
  );
  app.get<{ Querystring: Query }>('/_emulator/graph/nodes', allow(ADMIN), (req) => ({
    values: readNodes(ctx.db, text(req.query, 'data_source_id', true), readOptions(req.query, 'type')),
  }));
  app.get<{ Querystring: Query }>('/_emulator/graph/edges', allow(ADMIN), (req) => ({
    values: readEdges(ctx.db, text(req.query, 'data_source_id', true), readOptions(req.query, 'kind')),
  }));
  app.get<{ Querystring: Query }>('/_emulator/events', allow(ADMIN), (req) => {
    // The view shows what the events API would: nothing past the 90-day retention.
    purgeExpiredEvents(ctx.db, ctx.clock.nowMs());
    return {
      values: listEvents(ctx.db, {
        eventType: text(req.query, 'event_type'),
        limit: count(req.query, 'limit', 1000, 100_000),
      }),
    };
  });
}
