/**
 * Data sources of a provider: create, list, get, delete; and the push actions on one data source
 * (`:push`, `:push_csv`, `:parts`), dispatched by the suffix after the colon.
 */
import { dataSourceCreateSchema } from '@oaakit/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authorize.js';
import { allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { splitAction } from '../http/split-action.js';
import { parseListQuery } from '../query/list-query.js';
import { toPage } from '../query/page.js';
import {
  DATA_SOURCE_COLUMNS,
  dataSourceNameTaken,
  deleteDataSource,
  getDataSource,
  insertDataSource,
  type DataSourceRecord,
} from '../store/data-sources.js';
import { recordEvent } from '../store/events.js';
import type { ProviderRecord } from '../store/providers.js';
import { requireProvider, unknownAction } from './providers.js';
import { handleParts } from './parts.js';
import { divertedJsonData, divertJsonData, handlePush } from './push.js';
import { handlePushCsv } from './push-csv.js';

const BASE = '/api/v1/providers/custom/:id/datasources';

const LIST_SPEC = {
  filterColumns: { name: 'name', status: 'status', id: 'id' },
  orderColumns: { name: 'name', status: 'status', created_at: 'created_at' },
  tieBreaker: 'seq',
};

/** The provider of a `/{id}/datasources` path (the segment must be a bare id). */
function providerOfPath(ctx: EmulatorContext, segment: string): ProviderRecord {
  const { id, action } = splitAction(segment);
  if (action !== undefined) throw notFound('provider', segment);
  return requireProvider(ctx, id);
}

/** The data source `id` of `provider`, or a 404. */
export function requireDataSource(
  ctx: EmulatorContext,
  provider: ProviderRecord,
  id: string,
): DataSourceRecord {
  const ds = getDataSource(ctx.db, provider.id, id);
  if (!ds) throw notFound('datasource', id);
  return ds;
}

function createDataSource(
  ctx: EmulatorContext,
  provider: ProviderRecord,
  req: FastifyRequest,
): { value: DataSourceRecord } {
  const body = parseBody(dataSourceCreateSchema, req.body);
  if (body.id !== provider.id) throw badField('id', `must be the provider id of the path (${provider.id})`);
  const now = ctx.clock.iso();
  // Checked in the inserting transaction: another process may be creating the same name right now.
  const ds = ctx.db.transaction(() => {
    if (dataSourceNameTaken(ctx.db, provider.id, body.name))
      throw badField('name', 'Data source with the same name already exists');
    const created = insertDataSource(ctx.db, provider.id, body.name, now);
    recordEvent(ctx.db, {
      timestamp: now,
      category: 'INTEGRATIONS',
      severity: 'INFO',
      name: 'Data source registered',
      message: `Data source ${created.name} was registered for provider ${provider.name}`,
      provider_id: provider.id,
      entity: 'DATASOURCE',
      entity_id: created.id,
      entity_name: created.name,
      event_type: 'DATASOURCE_REGISTERED',
      error: null,
    });
    return created;
  })();
  return { value: ds };
}

function listDataSources(ctx: EmulatorContext, provider: ProviderRecord, req: FastifyRequest) {
  const q = parseListQuery(req.query as Record<string, unknown>, {
    ...LIST_SPEC,
    scope: `datasources:${provider.id}`,
  });
  const where = q.where ? `AND ${q.where}` : '';
  const rows = ctx.db
    .prepare<unknown[], DataSourceRecord>(
      `SELECT ${DATA_SOURCE_COLUMNS} FROM data_sources WHERE provider_id = ? ${where} ORDER BY ${q.orderBy} LIMIT ? OFFSET ?`,
    )
    .all(provider.id, ...q.params, q.page.size + 1, q.page.offset);
  return toPage(rows, q.page);
}

function removeDataSource(
  ctx: EmulatorContext,
  provider: ProviderRecord,
  ds: DataSourceRecord,
): Record<string, never> {
  deleteDataSource(ctx.db, ds.id);
  recordEvent(ctx.db, {
    timestamp: ctx.clock.iso(),
    category: 'INTEGRATIONS',
    severity: 'INFO',
    name: 'Data source removed',
    message: `Data source ${ds.name} of provider ${provider.name} was removed`,
    provider_id: provider.id,
    entity: 'DATASOURCE',
    entity_id: ds.id,
    entity_name: ds.name,
    event_type: 'DATASOURCE_REMOVED',
    error: null,
  });
  return {};
}

type DsParams = { Params: { id: string; ds: string } };

/** Registers the data source routes. */
export function registerDataSourceRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Params: { id: string } }>(BASE, allow(ANY_KEY), (req) =>
    createDataSource(ctx, providerOfPath(ctx, req.params.id), req),
  );
  app.get<{ Params: { id: string } }>(BASE, allow(ANY_KEY), (req) =>
    listDataSources(ctx, providerOfPath(ctx, req.params.id), req),
  );

  app.get<DsParams>(`${BASE}/:ds`, allow(ANY_KEY), (req) => {
    const provider = providerOfPath(ctx, req.params.id);
    const { id, action } = splitAction(req.params.ds);
    if (action !== undefined) throw unknownAction(req.method, action);
    return { value: requireDataSource(ctx, provider, id) };
  });

  app.delete<DsParams>(`${BASE}/:ds`, allow(ANY_KEY), (req) => {
    const provider = providerOfPath(ctx, req.params.id);
    const { id, action } = splitAction(req.params.ds);
    if (action !== undefined) throw unknownAction(req.method, action);
    return removeDataSource(ctx, provider, requireDataSource(ctx, provider, id));
  });

  app.post<DsParams>(
    `${BASE}/:ds`,
    { ...allow(ANY_KEY), preParsing: (req, _reply, payload) => divertJsonData(req, payload) },
    (req) => {
      const provider = providerOfPath(ctx, req.params.id);
      const { id, action } = splitAction(req.params.ds);
      const target = { provider, dataSource: requireDataSource(ctx, provider, id), requestId: req.id };
      switch (action) {
        case 'push':
          return handlePush(ctx, target, req.body, divertedJsonData(req));
        case 'push_csv':
          return handlePushCsv(ctx, target, req.body);
        case 'parts':
          // The route admits only authenticated callers, so the request hook remembered one.
          return handleParts(ctx, target, req.body, principalOf(req)?.caller ?? 'unknown');
        case undefined:
        default:
          throw unknownAction(req.method, action);
      }
    },
  );
}
