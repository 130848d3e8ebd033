/**
 * A small real HTTP source for the engine's tests (node:http on 127.0.0.1, port 0, closed by the
 * test), which records every request; and a manifest run over the runner's own `ctx.http`
 * (`testContext` of `@oaakit/runner/testing`), so retries, errors and timeouts are a run's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testContext, type TestContext } from '@oaakit/runner/testing';
import { manifestConfigSchema } from '../connector.js';
import { ManifestRun } from '../engine/run.js';
import type { CompiledManifest } from '../manifest/compile.js';
import { compileManifestText } from '../manifest/load.js';

/** One request the source saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What a route answers: a JSON body (or text), a status and headers. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}

export type Route = (req: SeenRequest, raw: IncomingMessage) => Answer | Promise<Answer>;

export interface Source {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a source answering every request with `route`; `close()` it after the test. */
export async function serve(route: Route): Promise<Source> {
  const requests: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: await readBody(req),
      };
      requests.push(seen);
      let answer: Answer;
      try {
        answer = await route(seen, req);
      } catch (error) {
        answer = { status: 500, json: { error: (error as Error).message } };
      }
      const body = answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json));
      res.writeHead(answer.status ?? 200, {
        'content-type': answer.text === undefined ? 'application/json' : 'text/plain',
        ...answer.headers,
      });
      res.end(body);
    })();
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A manifest of the application template reading one stream `items` into local users. */
export function userManifest(
  stream: string,
  options: { secrets?: string; auth?: string; extra?: string } = {},
): string {
  return `version: 1
id: test-source
vars:
  url: { description: the source URL }
${options.secrets ?? ''}
source:
  base_url: '{{ vars.url }}'
${options.auth ?? ''}
streams:
${stream}
${options.extra ?? ''}
payload:
  template: application
  application: '{ "name": "Test", "application_type": "Test" }'
  local_users:
    stream: items
    map: '{ "name": name }'
`;
}

/** A run of a compiled manifest over a test context, vars checked by the manifest's config schema. */
export function manifestRun(
  compiled: CompiledManifest,
  vars: Record<string, unknown>,
  secrets: Record<string, string> = {},
): { run: ManifestRun; t: TestContext<unknown, string> } {
  const config = manifestConfigSchema(compiled).parse({ manifest: 'test', vars });
  const t = testContext<unknown, string>({ config, secrets });
  const run = new ManifestRun(compiled, {
    http: t.ctx.http,
    secrets,
    vars: config.vars,
    signal: t.ctx.signal,
    logger: t.ctx.logger,
    progress: t.ctx.progress,
  });
  return { run, t };
}

/** Every record of a stream of the manifest text, read from `url`. */
export async function readAll(
  text: string,
  stream: string,
  vars: Record<string, unknown>,
  secrets: Record<string, string> = {},
): Promise<unknown[]> {
  const { run } = manifestRun(compileManifestText(text, 'test.yaml'), vars, secrets);
  const out: unknown[] = [];
  for await (const { record } of run.streams.records(stream)) out.push(record);
  return out;
}

/** Reads a payload whose collections may be async iterables into plain JSON. */
export async function materialize(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => materialize(v)));
  if (typeof value !== 'object' || value === null) return value;
  if (Symbol.asyncIterator in value) {
    const out: unknown[] = [];
    for await (const item of value as AsyncIterable<unknown>) out.push(await materialize(item));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = await materialize(v);
  return out;
}

/** The payload a manifest text makes, read whole. */
export async function extract(
  text: string,
  vars: Record<string, unknown>,
  secrets: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const { run } = manifestRun(compileManifestText(text, 'test.yaml'), vars, secrets);
  return (await materialize(await run.payload())) as Record<string, unknown>;
}
