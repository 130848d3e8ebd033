/**
 * Index-based paging of RFC 7644 section 3.4.2.4: `startIndex` (1-based) and `count`, answered by a
 * ListResponse with `totalResults` and `Resources`. Servers may return fewer resources than asked
 * (a cap on `count`), so the next page starts after the resources actually returned.
 */
import { OaaError, type ProgressReporter } from '@oaakit/core';
import type { ScimReader } from './scim-http.js';
import type { ScimAppErrorCode } from './error-codes.js';

export interface ListOptions {
  reader: ScimReader;
  /** Resource endpoint, e.g. `/Users`. */
  path: string;
  pageSize: number;
  signal: AbortSignal;
  progress: ProgressReporter;
  /** Progress phase name, e.g. `users`. */
  phase: string;
}

const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/**
 * Every resource of `path`, one page at a time. Stops when `totalResults` resources have been read
 * or a page is empty. A page that repeats a resource already read means the server ignores
 * `startIndex`; that is an error rather than an endless loop or a silently duplicated payload.
 */
export async function* listResources(options: ListOptions): AsyncGenerator<unknown[], void, undefined> {
  const { reader, path, pageSize, signal, progress, phase } = options;
  const seen = new Set<string>();
  let startIndex = 1;
  let started = false;
  for (;;) {
    signal.throwIfAborted();
    const body = await reader.get(path, { startIndex, count: pageSize });
    const page = readListResponse(body, path, startIndex);
    if (!started) {
      progress.start(phase, page.totalResults);
      started = true;
    }
    if (page.resources.length === 0) return;
    for (const r of page.resources) {
      const id = typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined;
      if (typeof id !== 'string') continue;
      if (seen.has(id)) {
        throw new OaaError<ScimAppErrorCode>(
          `the SCIM service returned ${path} resource ${JSON.stringify(id)} again at startIndex ${startIndex}: it does not page with startIndex`,
          {
            code: 'SCIM_PAGING_BROKEN',
            details: { path, startIndex, id },
            hints: [
              'the server seems to ignore startIndex; try a pageSize large enough to read everything in one page',
            ],
          },
        );
      }
      seen.add(id);
    }
    yield page.resources;
    progress.tick(page.resources.length);
    startIndex += page.resources.length;
    if (page.totalResults !== undefined && startIndex > page.totalResults) return;
  }
}

interface Page {
  resources: unknown[];
  totalResults?: number;
}

function readListResponse(body: unknown, path: string, startIndex: number): Page {
  const obj =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  const schemas = obj?.schemas;
  const resources = obj?.Resources ?? obj?.resources;
  const total = obj?.totalResults;
  // `Resources` may be left out when nothing matched (RFC 7644 section 3.4.2).
  const ok =
    obj !== undefined &&
    (resources === undefined || Array.isArray(resources)) &&
    (Array.isArray(schemas) ? schemas.includes(LIST_RESPONSE) : true);
  if (!ok || (resources === undefined && typeof total !== 'number')) {
    throw new OaaError<ScimAppErrorCode>(
      `GET ${path}?startIndex=${startIndex} did not answer with a SCIM ListResponse`,
      {
        code: 'SCIM_BAD_RESPONSE',
        details: { path, startIndex },
        hints: ['check baseUrl: it should be the SCIM base URL, e.g. https://app.example.com/scim/v2'],
      },
    );
  }
  const page: Page = { resources: (resources as unknown[] | undefined) ?? [] };
  if (typeof total === 'number' && Number.isFinite(total)) page.totalResults = total;
  return page;
}
