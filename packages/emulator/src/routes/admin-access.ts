/**
 * `POST /_emulator/access` (admin): the effective access of an identity with the paths that explain
 * it (`access/explain.ts`), for `oaa access`. The node query API answers what and which permissions;
 * this route adds why. Body: `{ "identity": "<node id, name, email or identity>" }`.
 */
import type { FastifyInstance } from 'fastify';
import { explainAccess, resolveIdentity, type AccessView } from '../access/explain.js';
import { GraphReads } from '../access/graph-reads.js';
import { AccessLimitError, limitToBadRequest } from '../access/limits.js';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';

function identityOf(body: unknown): string {
  const v = (body as { identity?: unknown } | null)?.identity;
  if (typeof v !== 'string' || v.length === 0 || v.length > 256)
    throw badField('identity', 'must be a node id, name, email or identity of 1 to 256 characters');
  return v;
}

/** Registers the access explanation route. */
export function registerAccessRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/access', allow(ADMIN), (req): { values: AccessView[] } => {
    const identity = identityOf(req.body);
    const explain = ctx.db.transaction((): { values: AccessView[] } => {
      const g = new GraphReads(ctx.db);
      const sources = resolveIdentity(ctx.db, g, identity);
      if (sources.length === 0) throw notFound('identity', identity);
      return { values: sources.map((s) => explainAccess(g, s, 'identity')) };
    });
    try {
      // A read snapshot, as node queries take one.
      return explain.deferred();
    } catch (err) {
      if (err instanceof AccessLimitError) throw limitToBadRequest(err);
      throw err;
    }
  });
}
