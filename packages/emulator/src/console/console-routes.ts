/**
 * The web console at `/console`: its pages (one HTML shell each, filled by the bundled script), the
 * bundle itself, and the JSON routes the pages call. The JSON routes call the same store and
 * service functions as the API routes, so a console action is an API action. Pages and JSON routes
 * need a signed-in user (`SESSION`: a page without one goes to the sign-in page), and every change
 * carries the session's CSRF token (`x-csrf-token`, checked by `checkCsrf`). The bundle (code and
 * styles, no data) is public.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { listKeys } from '../auth/api-keys.js';
import { allow, PUBLIC, SESSION } from '../auth/route-access.js';
import { checkCsrf, csrfToken, requireSession } from '../console-auth/request-session.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { createKeyFromBody, revokeKeyById } from '../routes/admin-api-keys.js';
import { getIconResponse } from '../routes/icons.js';
import { getProvider } from '../store/providers.js';
import { CONSOLE_ASSET_TYPES, consoleAsset } from './console-assets.js';
import { explorerGraph } from './console-graph.js';
import { CONSOLE_HEADERS, consoleShell, isConsolePage } from './console-shell.js';
import { providerOverview } from './provider-overview.js';

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
    const type = CONSOLE_ASSET_TYPES[req.params.name];
    if (type === undefined) throw notFound('console asset', req.params.name);
    const bytes = await consoleAsset(req.params.name);
    return reply.header('x-content-type-options', 'nosniff').type(type).send(bytes);
  });

  app.get('/console/api/providers', allow(SESSION), () => ({ values: providerOverview(ctx.db) }));

  app.get<{ Params: { id: string } }>('/console/api/providers/:id/icon', allow(SESSION), (req, reply) => {
    const provider = getProvider(ctx.db, req.params.id);
    if (!provider) throw notFound('provider', req.params.id);
    const icon = getIconResponse(ctx, provider);
    return reply.type(icon.mime_type).send(Buffer.from(icon.icon_base64, 'base64'));
  });

  app.get<{ Querystring: Record<string, unknown> }>('/console/api/graph', allow(SESSION), (req) => {
    const id = req.query.data_source_id;
    if (typeof id !== 'string' || id === '') throw badField('data_source_id', 'is required, once');
    if (!dataSourceExists(ctx, id)) throw notFound('data_source', id);
    return explorerGraph(ctx.db, id);
  });

  app.get('/console/api/api_keys', allow(SESSION), () => ({ values: listKeys(ctx.db) }));
  app.post('/console/api/api_keys', allow(SESSION), (req) => {
    checkCsrf(req);
    return createKeyFromBody(ctx, req.body);
  });
  app.delete<{ Params: { id: string } }>('/console/api/api_keys/:id', allow(SESSION), (req) => {
    checkCsrf(req);
    return revokeKeyById(ctx, req.params.id);
  });
}
