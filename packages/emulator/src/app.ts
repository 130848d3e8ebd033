/**
 * Builds the fastify application: request ids, fault injection, authentication, call recording, the
 * error body, and every route.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { authorize } from './auth/authorize.js';
import type { EmulatorContext } from './context.js';
import { ApiError, codeForStatus, statusOf } from './errors.js';
import { errorHandler, sendError } from './http/error-handler.js';
import { registerRoutes } from './routes/index.js';

export interface BuildAppOptions {
  bodyLimit: number;
  https?: { key: string; cert: string };
}

const EMULATOR_PREFIX = '/_emulator';

function pathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
}

function queryOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q === -1 ? '' : req.url.slice(q + 1);
}

/** The fastify instance serving the emulator. */
export function buildApp(ctx: EmulatorContext, options: BuildAppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit,
    genReqId: () => randomUUID().replaceAll('-', ''),
    requestIdHeader: false,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
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

  const arrivedAt = new WeakMap<FastifyRequest, string>();

  app.addHook('onRequest', async (req, reply) => {
    arrivedAt.set(req, ctx.clock.iso());
    void reply.header('x-request-id', req.id);
    const path = pathOf(req);
    if (!path.startsWith(EMULATOR_PREFIX)) await applyFault(ctx, req, reply, path, arrivedAt.get(req)!);
    if (reply.sent) return;
    authorize(ctx.db, path, req.headers.authorization);
  });

  app.addHook('onResponse', async (req, reply) => {
    const path = pathOf(req);
    if (!path.startsWith(EMULATOR_PREFIX)) {
      ctx.calls.record({
        time: arrivedAt.get(req) ?? ctx.clock.iso(),
        method: req.method,
        path,
        query: queryOf(req),
        status: reply.statusCode,
        request_id: req.id,
      });
    }
    ctx.logger.info(
      {
        request_id: req.id,
        method: req.method,
        path,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  app.setErrorHandler(errorHandler(ctx, options.bodyLimit));
  app.setNotFoundHandler((req, reply) =>
    sendError(
      ctx,
      req,
      reply,
      new ApiError('NotFound', {
        message: `no endpoint ${req.method} ${pathOf(req)}`,
        resource: { type: 'endpoint', name: `${req.method} ${pathOf(req)}` },
      }),
    ),
  );

  registerRoutes(app, ctx);
  return app;
}

async function applyFault(
  ctx: EmulatorContext,
  req: FastifyRequest,
  reply: FastifyReply,
  path: string,
  time: string,
): Promise<void> {
  const fault = ctx.faults.take(req.method, path);
  if (!fault) return;
  if (fault.latency_ms) await sleep(fault.latency_ms);
  if (fault.drop) {
    ctx.calls.record({
      time,
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
