/**
 * A local HTTP server that counts the bytes of each request body and answers like the service for
 * the calls a push makes: providers and data sources (list by name, create, get) kept in memory,
 * `:push`, and `:parts` (start, upload, complete). After a push, the data source reads as parsed
 * (`status` SUCCESS, `updated_at`) and `GET /api/preview/events` lists its OAA_PUSH event, so that
 * `oaa run`'s wait for the parse outcome ends at its first look, as it does against the service
 * once the payload is parsed. Any other POST (the `npm run bench` harness posts to `/push`) is
 * answered like a push. Nothing is parsed but the small bodies of creates and parts
 * starts and completes, so the sink costs the pushing process nothing measurable.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingSink {
  url: string;
  /** Bytes received in request bodies so far. */
  bytes(): number;
  /** Calls that carried payload data or completed it: `push`, `parts:upload`, `parts:complete`. */
  calls(): readonly string[];
  /** Payloads pushed so far: single pushes plus completed multipart uploads. */
  pushes(): number;
  close(): Promise<void>;
}

interface Named {
  id: string;
  name: string;
}

interface DataSource extends Named {
  status?: string;
  updated_at?: string;
}

const EVENTS = '/api/preview/events';

const PROVIDERS = '/api/v1/providers/custom';
/** Bodies parsed as JSON (creates, parts start and complete); anything larger is only counted. */
const PARSED_BODY_LIMIT = 64 * 1024;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The quoted value of `name eq '...'` / `name eq "..."` in a list filter, if any. */
function nameFilter(url: URL): string | undefined {
  const match = /name eq (['"])(.*)\1/.exec(url.searchParams.get('filter') ?? '');
  return match?.[2];
}

function list(items: Named[], url: URL): unknown {
  const name = nameFilter(url);
  const values = name === undefined ? items : items.filter((i) => i.name === name);
  return { values, has_more: false };
}

export async function startCountingSink(): Promise<CountingSink> {
  let received = 0;
  const calls: string[] = [];
  const providers: (Named & Record<string, unknown>)[] = [];
  const dataSources = new Map<string, DataSource[]>();
  /** The OAA_PUSH event of the last push to each data source. */
  const pushEvents = new Map<string, Record<string, unknown>>();

  function pushed(providerId: string, dataSource: DataSource): void {
    const timestamp = new Date().toISOString();
    dataSource.status = 'SUCCESS';
    dataSource.updated_at = timestamp;
    pushEvents.set(dataSource.id, {
      id: randomUUID(),
      timestamp,
      category: 'INTEGRATIONS',
      severity: 'INFO',
      event_type: 'OAA_PUSH',
      entity: 'DATASOURCE',
      entity_id: dataSource.id,
      entity_name: dataSource.name,
      provider_id: providerId,
    });
  }

  /** The events of the data sources the filter names (`entity_id eq "..."`), else all. */
  function events(url: URL): unknown {
    const filter = url.searchParams.get('filter') ?? '';
    const ids = [...filter.matchAll(/entity_id eq "([^"]+)"/g)].map((m) => m[1]!);
    const values = [...pushEvents.entries()]
      .filter(([id]) => ids.length === 0 || ids.includes(id))
      .map(([, event]) => event);
    return { values, has_more: false };
  }

  function answer(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
    const url = new URL(req.url ?? '/', 'http://sink');
    const path = decodeURIComponent(url.pathname);
    const parsed =
      body === undefined ? undefined : (JSON.parse(body.toString('utf8')) as Record<string, unknown>);
    if (path === EVENTS && req.method === 'GET') return send(res, 200, events(url));
    if (!path.startsWith(PROVIDERS)) {
      calls.push('push');
      return send(res, 200, { warnings: [] });
    }
    const rest = path.slice(PROVIDERS.length).split('/').filter(Boolean);
    const [providerId, sub, dataSourcePart] = rest;
    if (providerId === undefined) {
      if (req.method === 'GET') return send(res, 200, list(providers, url));
      const provider = {
        id: randomUUID(),
        name: String(parsed?.name),
        custom_template: parsed?.custom_template,
        state: 'ENABLED',
      };
      providers.push(provider);
      dataSources.set(provider.id, []);
      return send(res, 200, { value: provider });
    }
    const provider = providers.find((p) => p.id === providerId);
    const sources = dataSources.get(providerId);
    if (provider === undefined || sources === undefined)
      return send(res, 404, { message: 'no such provider' });
    if (sub === undefined) return send(res, 200, { value: provider });
    if (dataSourcePart === undefined) {
      if (req.method === 'GET') return send(res, 200, list(sources, url));
      const dataSource = { id: randomUUID(), name: String(parsed?.name) };
      sources.push(dataSource);
      return send(res, 200, { value: dataSource });
    }
    const [dataSourceId, action] = dataSourcePart.split(':');
    const dataSource = sources.find((d) => d.id === dataSourceId);
    if (dataSource === undefined) return send(res, 404, { message: 'no such data source' });
    if (action === undefined) return send(res, 200, { value: dataSource });
    if (action === 'parts') {
      if (parsed?.operation === 'start') return send(res, 200, { upload_id: randomUUID() });
      if (parsed?.operation === 'complete') {
        calls.push('parts:complete');
        pushed(providerId, dataSource);
        return send(res, 200, { warnings: [] });
      }
      calls.push('parts:upload');
      return send(res, 200, {});
    }
    calls.push(action);
    pushed(providerId, dataSource);
    return send(res, 200, { warnings: [] });
  }

  const server: Server = createServer((req, res) => {
    const small: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      size += chunk.length;
      if (size <= PARSED_BODY_LIMIT) small.push(chunk);
    });
    req.on('end', () => {
      const parse = req.method === 'POST' && size > 0 && size <= PARSED_BODY_LIMIT;
      try {
        answer(req, res, parse ? Buffer.concat(small) : undefined);
      } catch (error) {
        send(res, 400, { message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    bytes: () => received,
    calls: () => calls,
    pushes: () => calls.filter((c) => c === 'push' || c === 'parts:complete').length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
