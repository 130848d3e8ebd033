/**
 * Access-request settings: `PATCH /api/private/lifecycle_management/access_requests/settings` with
 * any of the spec's fields (core's strict schema: an unknown key is a 400 naming it), merged into
 * the stored settings (access-requests/merge-settings.ts). The spec shows no read; the current
 * settings are readable under `/_emulator/access_request_settings`.
 */
import { accessRequestSettingsSchema } from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { mergeSettings, type SettingsDocument } from '../access-requests/merge-settings.js';
import { ADMIN, allow } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { parseBody } from '../http/parse-body.js';
import { readSetting, writeSetting } from '../store/settings.js';

const PATH = '/api/private/lifecycle_management/access_requests/settings';
const KEY = 'access_request_settings';
/** Largest PATCH body: settings are small documents (the schema bounds each list and string too). */
const BODY_LIMIT = 1024 * 1024;

/** The stored settings (`{}` before any PATCH). */
export function accessRequestSettings(ctx: EmulatorContext): SettingsDocument {
  return readSetting<SettingsDocument>(ctx.db, KEY) ?? {};
}

/** Registers the PATCH and the `/_emulator` read. */
export function registerAccessRequestSettingsRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.patch(PATH, { ...allow(ADMIN), bodyLimit: BODY_LIMIT }, (req) => {
    const patch = parseBody(accessRequestSettingsSchema, req.body);
    const value = ctx.db.transaction(() => {
      const merged = mergeSettings(accessRequestSettings(ctx), patch);
      writeSetting(ctx.db, KEY, merged);
      return merged;
    })();
    return { value };
  });
  app.get('/_emulator/access_request_settings', allow(ADMIN), () => ({ value: accessRequestSettings(ctx) }));
}
