/** A local HTTP server that counts the bytes of each request body and answers like a push. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingSink {
  url: string;
  /** Bytes received in request bodies so far. */
  bytes(): number;
  close(): Promise<void>;
}

export async function startCountingSink(): Promise<CountingSink> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (received += chunk.length));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"warnings":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    bytes: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
