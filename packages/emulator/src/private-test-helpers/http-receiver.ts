/**
 * A real HTTP receiver for tests (node:http on 127.0.0.1, port 0): records every request's method,
 * path, headers and JSON body, and answers with a status the test chooses.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../testing/until.js';

/** A received request. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A running receiver. */
export interface HttpReceiver {
  url: string;
  /** `127.0.0.1:PORT`, as an allowlist entry. */
  host: string;
  received: ReceivedRequest[];
  /** The status the next answers carry (default 200). */
  status: number;
  waitFor(count: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts a receiver. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const received: ReceivedRequest[] = [];
  const receiver = { status: 200 } as HttpReceiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      res.writeHead(receiver.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received,
    async waitFor(count: number) {
      await until(`${count} request(s) to arrive`, () => received.length >= count);
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
