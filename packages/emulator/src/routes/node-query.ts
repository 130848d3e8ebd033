/**
 * `POST /api/v1/assessments/query_spec:nodes`: node queries with effective permissions over the graph
 * of every data source (`node-query/run-query.ts`; meaning of each field in docs/emulator.md).
 */
import { NODE_QUERY_LIMITS, nodeQueryRequestSchema } from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { AccessLimitError, limitToBadRequest } from '../access/limits.js';
import { allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { runNodeQuery, type NodeQueryPage } from '../node-query/run-query.js';

/** Milliseconds one page may spend before it is answered with what it found and `has_more`. */
export const NODE_QUERY_PAGE_BUDGET_MS = 2_000;

type Query = Record<string, unknown>;

function pageSizeOf(q: Query): number {
  const v = q.page_size;
  if (v === undefined || v === '') return NODE_QUERY_LIMITS.pageSize;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > NODE_QUERY_LIMITS.pageSize)
    throw badField('page_size', `must be an integer from 1 to ${NODE_QUERY_LIMITS.pageSize}`);
  return n;
}

/** Registers the node query route. */
export function registerNodeQueryRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Querystring: Query }>(
    '/api/v1/assessments/query_spec::nodes',
    allow(ANY_KEY),
    (req): NodeQueryPage => {
      const pageSize = pageSizeOf(req.query);
      const pageToken = req.query.page_token;
      const body = parseBody(nodeQueryRequestSchema, req.body);
      try {
        // One read transaction: a snapshot of the graph even when another process pushes meanwhile
        // (a deferred one, which in WAL mode does not hold writers up).
        const run = ctx.db.transaction(() =>
          runNodeQuery(ctx.db, body, { pageSize, pageToken, budgetMs: NODE_QUERY_PAGE_BUDGET_MS }),
        );
        return run.deferred();
      } catch (err) {
        if (err instanceof AccessLimitError) throw limitToBadRequest(err);
        throw err;
      }
    },
  );
}
