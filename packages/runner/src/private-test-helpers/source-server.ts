/**
 * A real HTTP server on 127.0.0.1 port 0 standing for a connector's source: each test gives the
 * handler that answers, and reads what the server was sent.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the server received, body read whole. */
export interface SourceRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type SourceHandler = (req: SourceRequest, res: ServerResponse) => void;

export interface SourceServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Every request, in the order received. */
  requests: SourceRequest[];
  /** Replaces the handler. */
  handle(handler: SourceHandler): void;
  close(): Promise<void>;
}

/** Starts the server with `handler` (by default 200 and `{}`); `close()` it after the test. */
export async function startSourceServer(handler?: SourceHandler): Promise<SourceServer> {
  let current: SourceHandler =
    handler ??
    ((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  const requests: SourceRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(seen);
      current(seen, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
