/**
 * Custom providers: create, list, get, update (PATCH `{ provisioning }`), delete. Paths with an
 * action after a colon (`/api/v1/providers/custom/{id}:icon`) share the `{id}` route and are
 * dispatched by suffix.
 */
import { providerCreateSchema, TEMPLATES } from '@oaakit/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { splitAction } from '../http/split-action.js';
import { parseCsvConfigJson } from '../csv/csv-config.js';
import { parseListQuery } from '../query/list-query.js';
import { toPage } from '../query/page.js';
import { recordEvent } from '../store/events.js';
import { dataSourcesOf, deleteDataSource } from '../store/data-sources.js';
import {
  deleteProviderRow,
  getProvider,
  insertProvider,
  providerFromRow,
  providerNameTaken,
  type ProviderRecord,
} from '../store/providers.js';
import { deleteIcon, getIconResponse, setIcon } from './icons.js';
import { provisioningProblem, updateProvider } from './provider-update.js';

const BASE = '/api/v1/providers/custom';

const LIST_SPEC = {
  filterColumns: { name: 'name', state: 'state', id: 'id' },
  orderColumns: { name: 'name', state: 'state', created_at: 'created_at' },
  tieBreaker: 'seq',
};

/** The provider `id` or a 404. */
export function requireProvider(ctx: EmulatorContext, id: string): ProviderRecord {
  const provider = getProvider(ctx.db, id);
  if (!provider) throw notFound('provider', id);
  return provider;
}

function createProvider(ctx: EmulatorContext, req: FastifyRequest): { value: ProviderRecord } {
  const body = parseBody(providerCreateSchema, req.body);
  if (body.external_lifecycle_management_type != null && body.custom_template !== 'application') {
    throw badField(
      'external_lifecycle_management_type',
      `is only allowed for template application, not ${body.custom_template}`,
    );
  }
  const provisioning = provisioningProblem(body.custom_template, body.provisioning);
  if (provisioning) throw badField('provisioning', provisioning);
  if (body.configuration_json != null && body.configuration_json !== '') {
    const problem = parseCsvConfigJson(body.configuration_json, body.custom_template).problem;
    if (problem) throw badField('configuration_json', problem);
  }
  // Checked in the inserting transaction: another process may be creating the same name right now.
  return ctx.db.transaction(() => {
    if (providerNameTaken(ctx.db, body.name))
      throw badField('name', 'Provider with the same name already exists');
    return { value: insertProvider(ctx.db, body, ctx.clock.iso()) };
  })();
}

function listProviders(ctx: EmulatorContext, req: FastifyRequest) {
  const q = parseListQuery(req.query as Record<string, unknown>, { ...LIST_SPEC, scope: 'providers' });
  const where = q.where ? `WHERE ${q.where}` : '';
  const rows = ctx.db
    .prepare<unknown[], { record: string }>(
      `SELECT record FROM providers ${where} ORDER BY ${q.orderBy} LIMIT ? OFFSET ?`,
    )
    .all(...q.params, q.page.size + 1, q.page.offset);
  return toPage(rows.map(providerFromRow), q.page);
}

function deleteProvider(ctx: EmulatorContext, id: string): Record<string, never> {
  const provider = requireProvider(ctx, id);
  const now = ctx.clock.iso();
  for (const ds of dataSourcesOf(ctx.db, id)) {
    deleteDataSource(ctx.db, ds.id);
    recordEvent(ctx.db, {
      timestamp: now,
      category: 'INTEGRATIONS',
      severity: 'INFO',
      name: 'Data source removed',
      message: `Data source ${ds.name} of provider ${provider.name} was removed with its provider`,
      provider_id: id,
      entity: 'DATASOURCE',
      entity_id: ds.id,
      entity_name: ds.name,
      event_type: 'DATASOURCE_REMOVED',
      error: null,
    });
  }
  deleteProviderRow(ctx.db, id);
  return {};
}

/** Registers the provider routes (and the per-provider icon actions they dispatch to). */
export function registerProviderRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(`${BASE}/templates`, allow(ANY_KEY), () => ({
    values: TEMPLATES.map((name) => ({ name })),
  }));

  app.post(BASE, allow(ANY_KEY), (req) => createProvider(ctx, req));
  app.get(BASE, allow(ANY_KEY), (req) => listProviders(ctx, req));

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, allow(ANY_KEY), (req) => {
    const { id, action } = splitAction(req.params.id);
    if (action === undefined) return { value: requireProvider(ctx, id) };
    if (action === 'icon') return getIconResponse(ctx, requireProvider(ctx, id));
    throw unknownAction(req.method, action);
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id`, allow(ANY_KEY), (req) => {
    const { id, action } = splitAction(req.params.id);
    if (action === 'icon') return setIcon(ctx, requireProvider(ctx, id), req.body);
    throw unknownAction(req.method, action);
  });

  app.patch<{ Params: { id: string } }>(`${BASE}/:id`, allow(ANY_KEY), (req) => {
    const { id, action } = splitAction(req.params.id);
    if (action === undefined) return updateProvider(ctx, requireProvider(ctx, id), req.body);
    throw unknownAction(req.method, action);
  });

  app.delete<{ Params: { id: string } }>(`${BASE}/:id`, allow(ANY_KEY), (req) => {
    const { id, action } = splitAction(req.params.id);
    if (action === undefined) return deleteProvider(ctx, id);
    if (action === 'icon') return deleteIcon(ctx, requireProvider(ctx, id));
    throw unknownAction(req.method, action);
  });
}

/** 404 for an action this path does not have. */
export function unknownAction(method: string, action: string | undefined) {
  const what = action === undefined ? 'without an action' : `:${action}`;
  return notFound('endpoint', `${method} ${what}`);
}
