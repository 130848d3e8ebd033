/**
 * The web console at `/console`: its pages (one HTML shell each, filled by the bundled script), the
 * bundle itself, and three views the API has no shape for (the providers overview, the explorer's
 * compact graph, a template's rendered preview). Every action of a page is a call of the API
 * itself, with the session (session-access.ts). Pages and views need a signed-in user
 * (`SESSION`: a page without one goes to the sign-in page). The bundle (no data) is public.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { allow, PUBLIC, SESSION } from '../../auth/route-access.js';
import { checkCsrf, csrfToken, requireSession } from '../auth/request-session.js';
import type { EmulatorContext } from '../../context.js';
import { badField, notFound } from '../../errors.js';
import { CONSOLE_ASSET_TYPES, consoleAsset } from './assets.js';
import { explorerGraph } from './explorer-graph.js';
import { CONSOLE_HEADERS, consoleShell, isConsolePage } from '../pages/shell.js';
import { providerOverview } from './provider-overview.js';
import { previewTemplate } from './template-preview.js';

function html(reply: FastifyReply, body: string): FastifyReply {
  return reply.headers(CONSOLE_HEADERS).type('text/html; charset=utf-8').send(body);
}

function dataSourceExists(ctx: EmulatorContext, id: string): boolean {
  return (
    ctx.db.prepare<[string], number>('SELECT 1 FROM data_sources WHERE id = ?').pluck().get(id) !== undefined
  );
}

/** Registers the console's pages, assets and JSON routes. */
export function registerConsoleRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/console', allow(SESSION), (_req, reply) => reply.redirect('/console/providers'));

  app.get<{ Params: { page: string } }>('/console/:page', allow(SESSION), (req, reply) => {
    const page = req.params.page;
    if (!isConsolePage(page)) throw notFound('console page', page);
    const session = requireSession(req);
    return html(reply, consoleShell({ page, user: session.user.email, csrfToken: csrfToken(session) }));
  });

  app.get<{ Params: { name: string } }>('/console/assets/:name', allow(PUBLIC), async (req, reply) => {
    const type = CONSOLE_ASSET_TYPES.get(req.params.name);
    if (type === undefined) throw notFound('console asset', req.params.name);
    const bytes = await consoleAsset(req.params.name);
    return reply.type(type).send(bytes);
  });

  app.get('/console/api/providers', allow(SESSION), () => ({ values: providerOverview(ctx.db) }));

  app.get<{ Querystring: Record<string, unknown> }>('/console/api/graph', allow(SESSION), (req) => {
    const id = req.query.data_source_id;
    if (typeof id !== 'string' || id === '') throw badField('data_source_id', 'is required, once');
    if (!dataSourceExists(ctx, id)) throw notFound('data_source', id);
    return explorerGraph(ctx.db, id);
  });

  // Changes nothing, but takes a body: CSRF-checked like every POST of a session.
  app.post('/console/api/templates/preview', { ...allow(SESSION), bodyLimit: 1024 * 1024 }, (req) => {
    checkCsrf(req);
    return previewTemplate(req.body);
  });
}
