/**
 * The daemon's small HTTP server: `GET /healthz` and `GET /metrics`, nothing else. Plain `node:http`
 * is enough for two read-only routes, and keeps a web framework out of the runner.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OaaError } from '@oaakit/core';
import { DAEMON_ERROR_CODES } from './daemon-codes.js';

/** What a route answers. */
export interface StatusResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Options of {@link startStatusServer}. */
export interface StatusServerOptions {
  port: number;
  host: string;
  /** Path (`/healthz`) -> answer, computed on every request. */
  routes: Readonly<Record<string, () => StatusResponse | Promise<StatusResponse>>>;
}

/** A listening status server. */
export interface StatusServer {
  /** e.g. `http://127.0.0.1:9464`, with the port actually bound (port 0 picks one). */
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, response: StatusResponse, head: boolean): void {
  res.writeHead(response.status, {
    'content-type': response.contentType,
    'content-length': Buffer.byteLength(response.body),
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : response.body);
}

function text(status: number, body: string): StatusResponse {
  return { status, contentType: 'text/plain; charset=utf-8', body: `${body}\n` };
}

function handle(routes: StatusServerOptions['routes'], req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const route = routes[path];
  const head = req.method === 'HEAD';
  if (route === undefined)
    return answer(res, text(404, `not found; try ${Object.keys(routes).join(' or ')}`), head);
  if (req.method !== 'GET' && !head) {
    res.setHeader('allow', 'GET, HEAD');
    return answer(res, text(405, 'method not allowed'), false);
  }
  new Promise<StatusResponse>((resolve) => resolve(route())).then(
    (response) => answer(res, response, head),
    (error: unknown) => answer(res, text(500, `internal error: ${(error as Error).message}`), head),
  );
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Starts listening. Throws `DAEMON_LISTEN_FAILED` when the address cannot be bound (port in use,
 * no such interface).
 */
export async function startStatusServer(options: StatusServerOptions): Promise<StatusServer> {
  const server = createServer((req, res) => handle(options.routes, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (cause: NodeJS.ErrnoException) => {
      reject(
        new OaaError(
          `cannot serve /healthz and /metrics on ${options.host}:${options.port}: ${cause.message}`,
          {
            code: DAEMON_ERROR_CODES.LISTEN_FAILED,
            cause,
            details: { host: options.host, port: options.port, errno: cause.code },
            hints: ['pick another port with --port or daemon.port in the config (0 picks a free one)'],
          },
        ),
      );
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const url = urlOf(server.address() as AddressInfo);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Scrapers keep connections alive; without this, close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}
