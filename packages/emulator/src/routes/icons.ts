/**
 * Provider icons: set, get and delete per provider (dispatched from the provider routes), and the
 * type-level lookup `GET /api/v1/providers/custom:icon`.
 */
import { iconSetSchema, MAX_ICON_BYTES } from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { detectIconMime } from '../icons/detect.js';
import { decodeBase64 } from '../push/decode.js';
import type { ProviderRecord } from '../store/providers.js';

interface IconRow {
  mime_type: string;
  data: Buffer;
}

/** Stores the icon of `provider` from a `{ icon_base64 }` body (`id`, if sent, must match). */
export function setIcon(
  ctx: EmulatorContext,
  provider: ProviderRecord,
  rawBody: unknown,
): Record<string, never> {
  const body = parseBody(iconSetSchema, rawBody);
  if (body.id != null && body.id !== provider.id)
    throw badField('id', `must be the provider id of the path (${provider.id})`);
  const bytes = decodeBase64(body.icon_base64, 'icon_base64');
  if (bytes.length > MAX_ICON_BYTES)
    throw badField(
      'icon_base64',
      `the icon is ${bytes.length} bytes; it must be at most ${MAX_ICON_BYTES} bytes (64 KB)`,
    );
  const mime = detectIconMime(bytes);
  if (!mime) throw badField('icon_base64', 'the icon must be a PNG or SVG image (recognised by content)');
  ctx.db
    .prepare(
      'INSERT INTO icons (provider_id, mime_type, data) VALUES (?, ?, ?) ON CONFLICT (provider_id) DO UPDATE SET mime_type = excluded.mime_type, data = excluded.data',
    )
    .run(provider.id, mime, bytes);
  return {};
}

/** The icon of `provider`, or a 404 when it has none. */
export function getIconResponse(
  ctx: EmulatorContext,
  provider: ProviderRecord,
): { mime_type: string; icon_base64: string } {
  const row = ctx.db
    .prepare<[string], IconRow>('SELECT mime_type, data FROM icons WHERE provider_id = ?')
    .get(provider.id);
  if (!row) throw notFound('icon', provider.id);
  return { mime_type: row.mime_type, icon_base64: row.data.toString('base64') };
}

/** Removes the icon of `provider` (answering `{}` also when it had none). */
export function deleteIcon(ctx: EmulatorContext, provider: ProviderRecord): Record<string, never> {
  ctx.db.prepare('DELETE FROM icons WHERE provider_id = ?').run(provider.id);
  return {};
}

function typeOfNodeType(nodeType: string): string | undefined {
  const parts = nodeType.split('.');
  return parts[0] === 'OAA' && parts.length >= 3 ? parts[1] : undefined;
}

/** Registers the type-level icon lookup. */
export function registerIconRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: Record<string, unknown> }>(
    '/api/v1/providers/custom::icon',
    allow(ANY_KEY),
    (req) => {
      const q = req.query;
      const str = (name: string): string | undefined => {
        const v = q[name];
        if (v !== undefined && typeof v !== 'string') throw badField(name, 'must be given once');
        return v === '' ? undefined : v;
      };
      const schemaType = str('custom_schema_type');
      const nodeType = str('node_type');
      const type = str('app_or_idp_type') ?? (nodeType === undefined ? undefined : typeOfNodeType(nodeType));
      if (type === undefined)
        throw badField(
          'app_or_idp_type',
          'name an application, identity-provider or HRIS type (or give node_type as OAA.<type>.<kind>)',
        );
      const rows = ctx.db
        .prepare<[], { record: string; mime_type: string; data: Buffer }>(
          'SELECT p.record, i.mime_type, i.data FROM icons i JOIN providers p ON p.id = i.provider_id ORDER BY p.seq',
        )
        .all();
      const wanted = type.toLowerCase();
      for (const row of rows) {
        const p = JSON.parse(row.record) as ProviderRecord;
        if (schemaType !== undefined && p.custom_template !== schemaType) continue;
        const types = [...p.application_types, ...p.idp_types, ...p.hris_types, p.name];
        if (types.some((t) => t.toLowerCase() === wanted))
          return { mime_type: row.mime_type, icon_base64: row.data.toString('base64') };
      }
      throw notFound('icon', type);
    },
  );
}
