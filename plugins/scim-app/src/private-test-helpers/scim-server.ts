/**
 * A real SCIM 2.0 server for tests: SCIMMY with its Express routers (Express 4: on Express 5 the
 * routers ignore startIndex), on 127.0.0.1 port 0, serving seeded users and groups. Optional
 * middleware in front of the routers caps `count` or answers one request with 429.
 */
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import SCIMMY from 'scimmy';
import SCIMMYRouters from 'scimmy-routers';

/** A seeded resource, as the egress handler hands it to SCIMMY. */
export type SeedResource = Record<string, unknown> & { id: string };

export type ServerAuth =
  { type: 'bearer'; token: string } | { type: 'basic'; username: string; password: string };

export interface ScimServerOptions {
  users: SeedResource[];
  groups: SeedResource[];
  auth: ServerAuth;
  /** Largest `count` the server honours; larger requests get this many (RFC 7644 section 3.4.2.4). */
  maxCount?: number;
  /** The request after this many requests is answered once with 429 and this Retry-After. */
  throttle?: { afterRequests: number; retryAfterSeconds: number };
  /** Drops `startIndex`, as the routers do on Express 5: every page is the first one. */
  ignoreStartIndex?: boolean;
}

/** One request the server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

export interface ScimServer {
  /** SCIM base URL, e.g. `http://127.0.0.1:PORT/scim/v2`. */
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

interface Store {
  users: SeedResource[];
  groups: SeedResource[];
}

// SCIMMY keeps declared resources in a process-wide singleton, so the handlers are declared once and
// find the data of the server that received the request through the routers' context.
function declareResources(): void {
  if (SCIMMY.Resources.declared('User')) return;
  const egress = (kind: keyof Store) => (resource: { id?: string }, ctx: Store) => {
    const all = ctx[kind];
    return resource.id === undefined ? all : all.filter((r) => r.id === resource.id);
  };
  SCIMMY.Resources.declare(SCIMMY.Resources.User, {
    egress: egress('users'),
    extensions: [{ schema: SCIMMY.Schemas.EnterpriseUser, required: false }],
  });
  SCIMMY.Resources.declare(SCIMMY.Resources.Group, { egress: egress('groups') });
}

function checkAuth(auth: ServerAuth, header: string | undefined): void {
  const expected =
    auth.type === 'bearer'
      ? `Bearer ${auth.token}`
      : `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  if (header !== expected) throw new Error('invalid credentials');
}

/** Starts the server; `close()` it after the test. */
export async function startScimServer(options: ScimServerOptions): Promise<ScimServer> {
  declareResources();
  const store: Store = { users: options.users, groups: options.groups };
  const requests: SeenRequest[] = [];
  let seen = 0;
  let throttled = false;
  const app = express();

  app.use((req: Request, res: Response, next: NextFunction) => {
    // Routers rewrite req.path on the way down: read it now.
    const seenRequest = {
      method: req.method,
      path: req.path,
      query: Object.fromEntries(
        Object.entries(req.query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      ),
    };
    res.on('finish', () => requests.push({ ...seenRequest, status: res.statusCode }));
    next();
  });
  app.use((_req: Request, res: Response, next: NextFunction) => {
    const { throttle } = options;
    if (throttle && !throttled && seen++ === throttle.afterRequests) {
      throttled = true;
      res
        .status(429)
        .set('Retry-After', String(throttle.retryAfterSeconds))
        .json({ status: '429', detail: 'slow down' });
      return;
    }
    next();
  });
  if (options.ignoreStartIndex) {
    app.use((req: Request, _res: Response, next: NextFunction) => {
      delete req.query.startIndex;
      next();
    });
  }
  if (options.maxCount !== undefined) {
    const max = options.maxCount;
    app.use((req: Request, _res: Response, next: NextFunction) => {
      const count = Number(req.query.count);
      if (Number.isInteger(count) && count > max) req.query.count = String(max);
      next();
    });
  }
  app.use(
    '/scim/v2',
    new SCIMMYRouters({
      type: options.auth.type,
      handler: (req) => {
        checkAuth(options.auth, req.header('authorization'));
        return 'test-client';
      },
      context: () => store,
    }) as unknown as express.Router,
  );

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/scim/v2`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
