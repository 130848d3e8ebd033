/**
 * Builds the fastify application: request ids, fault injection, authentication, call recording, the
 * error body, and every route.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { authorize, rememberPrincipal } from './auth/authorize.js';
import { ADMIN, ANY_KEY, requireRouteAccess, tokenScopesOf } from './auth/route-access.js';
import { admitSession } from './console/auth/request-session.js';
import { consoleSessionPrincipal } from './console/server/session-access.js';
import type { EmulatorContext } from './context.js';
import { ApiError, codeForStatus, statusOf } from './errors.js';
import { errorHandler, MAX_PARAM_LENGTH, sendError } from './http/error-handler.js';
import { registerFormParser } from './http/form-body.js';
import { queryOf, targetOf, type RequestTarget } from './http/request-path.js';
import { setNoStore, setSecurityHeaders } from './http/security-headers.js';
import { registerRoutes } from './routes/index.js';

export interface BuildAppOptions {
  bodyLimit: number;
  https?: { key: string; cert: string };
}

/**
 * Unknown paths need a key like every call to the service, so probing without one learns nothing
 * (the same 401 as for a real route) and reaches nothing; with a key they are a 404.
 */
const UNKNOWN_PATH_ACCESS = ANY_KEY;

/**
 * Time a client has to send a whole request, headers and body (Node answers 408 and closes the
 * connection past it). A 100 MB push body needs under a second locally and 80 s at 10 Mbit/s; a
 * client that trickles bytes for longer holds a connection and its partial body for nothing.
 */
const REQUEST_TIMEOUT_MS = 120_000;

/** The fastify instance serving the emulator. */
export function buildApp(ctx: EmulatorContext, options: BuildAppOptions): FastifyInstance {
  const handleError = errorHandler(ctx, options.bodyLimit);
  const tls = options.https !== undefined;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit,
    requestTimeout: REQUEST_TIMEOUT_MS,
    genReqId: () => randomUUID().replaceAll('-', ''),
    requestIdHeader: false,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route or hook runs (a malformed percent-encoding, an
    // over-long path parameter) get the same body and x-request-id as every other answer.
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      const target = targetOf(req);
      const arrivedAt = ctx.clock.iso();
      void reply.header('x-request-id', req.id);
      setSecurityHeaders(reply, { tls, path: target.path });
      handleError(err, req, reply);
      finished(ctx, req, reply, { target, arrivedAt });
    },
    ...(options.https ? { https: options.https } : {}),
  }) as unknown as FastifyInstance;

  // An empty body with a JSON content type (common on DELETE) means "no body", not a syntax error.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    void json(req, body as string, done);
  });
  registerFormParser(app);

  const seen = new WeakMap<FastifyRequest, { arrivedAt: string; target: RequestTarget }>();

  app.addHook('onRequest', async (req, reply) => {
    const target = targetOf(req);
    const arrivedAt = ctx.clock.iso();
    seen.set(req, { arrivedAt, target });
    void reply.header('x-request-id', req.id);
    setSecurityHeaders(reply, { tls, path: target.path });
    if (!target.control) await applyFault(ctx, req, reply, { path: target.path, arrivedAt });
    if (reply.sent) return;
    // The route fastify matched says who may call it (a route without a declaration cannot be
    // registered; ADMIN is only the fail-closed fallback).
    const config = target.route === undefined ? undefined : req.routeOptions.config;
    const access = config === undefined ? UNKNOWN_PATH_ACCESS : (config.allow ?? ADMIN);
    if (access === 'session') {
      // Without a session a page goes to the sign-in page (and comes back), anything else is a 401.
      if (!admitSession(ctx, req, reply)) return reply;
      return undefined;
    }
    const route = { access, scopes: tokenScopesOf(access, config?.scopes), nowMs: ctx.clock.nowMs() };
    // The console's pages call the API with the session and its CSRF token (console/server/session-access.ts).
    const consoleCall = consoleSessionPrincipal(ctx, req, access);
    if (consoleCall) setNoStore(reply);
    rememberPrincipal(
      req,
      consoleCall ??
        authorize(ctx.db, route, req.headers.authorization, `${req.method} ${target.route ?? target.path}`),
    );
    return undefined;
  });

  app.addHook('onResponse', async (req, reply) => {
    finished(ctx, req, reply, seen.get(req) ?? { arrivedAt: ctx.clock.iso(), target: targetOf(req) });
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => {
    const name = `${req.method} ${targetOf(req).path}`;
    return sendError(
      ctx,
      req,
      reply,
      new ApiError('NotFound', { message: `no endpoint ${name}`, resource: { type: 'endpoint', name } }),
    );
  });

  requireRouteAccess(app);
  registerRoutes(app, ctx);
  return app;
}

/** Records an answered API call (not a `/_emulator` control) and logs the request. */
function finished(
  ctx: EmulatorContext,
  req: FastifyRequest,
  reply: FastifyReply,
  { arrivedAt, target }: { arrivedAt: string; target: RequestTarget },
): void {
  if (!target.control) {
    ctx.calls.record({
      time: arrivedAt,
      method: req.method,
      path: target.path,
      query: queryOf(req),
      status: reply.statusCode,
      request_id: req.id,
    });
  }
  ctx.logger.info(
    {
      request_id: req.id,
      method: req.method,
      path: target.path,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    },
    'request',
  );
}

async function applyFault(
  ctx: EmulatorContext,
  req: FastifyRequest,
  reply: FastifyReply,
  at: { path: string; arrivedAt: string },
): Promise<void> {
  const { path } = at;
  const fault = ctx.faults.take(req.method, path);
  if (!fault) return;
  if (fault.latency_ms) await sleep(fault.latency_ms);
  if (fault.drop) {
    ctx.calls.record({
      time: at.arrivedAt,
      method: req.method,
      path,
      query: queryOf(req),
      status: null,
      request_id: req.id,
    });
    ctx.logger.info({ request_id: req.id, method: req.method, path }, 'fault: connection dropped');
    reply.hijack();
    req.raw.socket.destroy();
    return;
  }
  if (fault.status === undefined && fault.code === undefined) return;
  const code = fault.code ?? codeForStatus(fault.status ?? 503);
  const status = fault.status ?? statusOf(code);
  const headers: Record<string, string> =
    fault.retry_after_s === undefined ? {} : { 'retry-after': String(fault.retry_after_s) };
  throw new ApiError(code, {
    status,
    headers,
    ...(fault.message === undefined ? {} : { message: fault.message }),
  });
}
