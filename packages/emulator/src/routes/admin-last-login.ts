/**
 * `/_emulator` controls of last-login enrichment (admin): the feature flags (the service's operator
 * sets `INTEG_OAA_SSO_LAST_LOGIN`) and the identity provider's audit activity, the single-sign-on
 * logins per application that a push looks up (the service extracts them from an IdP integration).
 */
import { isRfc3339, type Violation } from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { ADMIN, allow } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, invalidArgument } from '../errors.js';
import {
  addAuditLogins,
  auditCount,
  auditLogins,
  clearAuditLogins,
  FEATURE_FLAGS,
  FEATURE_FLAGS_KEY,
  featureFlags,
  MAX_AUDIT_ROWS,
  type AuditRecord,
} from '../last-login/audit-store.js';
import { writeSetting } from '../store/settings.js';
import { count, text } from './admin-graph.js';

/** Most logins one request adds. */
const MAX_LOGINS_PER_REQUEST = 10_000;
/** Most properties of one audit user, and the longest key or value. */
const MAX_USER_PROPERTIES = 50;
const MAX_TEXT = 256;
/** A request of 10,000 logins of 50 properties stays under this. */
const AUDIT_BODY_LIMIT = 16 * 1024 * 1024;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseFlags(body: unknown): Record<string, boolean> {
  if (!isObject(body)) throw badField('body', 'must be a JSON object of flag names to booleans');
  const problems: Violation[] = [];
  for (const [name, value] of Object.entries(body)) {
    if (!(FEATURE_FLAGS as readonly string[]).includes(name))
      problems.push({ field: name, description: `unknown feature flag; known: ${FEATURE_FLAGS.join(', ')}` });
    else if (typeof value !== 'boolean') problems.push({ field: name, description: 'must be true or false' });
  }
  if (problems.length > 0) throw invalidArgument(problems);
  return body as Record<string, boolean>;
}

function shortText(v: unknown): v is string {
  return typeof v === 'string' && v !== '' && v.length <= MAX_TEXT;
}

function parseLogins(body: unknown): AuditRecord[] {
  if (!isObject(body) || !Array.isArray(body.values))
    throw badField('values', 'must be a list of { idp_app_id, user: { property: value }, timestamp }');
  if (body.values.length > MAX_LOGINS_PER_REQUEST)
    throw badField('values', `at most ${MAX_LOGINS_PER_REQUEST} logins per request`);
  const problems: Violation[] = [];
  const out: AuditRecord[] = [];
  body.values.forEach((entry: unknown, i) => {
    const at = `values[${i}]`;
    if (!isObject(entry)) {
      problems.push({ field: at, description: 'must be an object' });
      return;
    }
    for (const key of Object.keys(entry))
      if (key !== 'idp_app_id' && key !== 'user' && key !== 'timestamp')
        problems.push({ field: `${at}.${key}`, description: 'unknown field' });
    if (!shortText(entry.idp_app_id))
      problems.push({
        field: `${at}.idp_app_id`,
        description: `must be a string of 1 to ${MAX_TEXT} characters`,
      });
    if (typeof entry.timestamp !== 'string' || !isRfc3339(entry.timestamp))
      problems.push({ field: `${at}.timestamp`, description: 'must be an RFC 3339 timestamp' });
    const user = entry.user;
    if (!isObject(user) || Object.keys(user).length === 0 || Object.keys(user).length > MAX_USER_PROPERTIES) {
      problems.push({
        field: `${at}.user`,
        description: `must be an object of 1 to ${MAX_USER_PROPERTIES} properties (login, email, custom attributes)`,
      });
    } else {
      for (const [key, value] of Object.entries(user))
        if (key.length > MAX_TEXT || typeof value !== 'string' || value.length > MAX_TEXT)
          problems.push({
            field: `${at}.user.${key}`,
            description: `must be a string of at most ${MAX_TEXT} characters`,
          });
    }
    if (problems.length === 0)
      out.push({
        idp_app_id: entry.idp_app_id as string,
        timestamp: entry.timestamp as string,
        user: user as Record<string, string>,
      });
  });
  if (problems.length > 0) throw invalidArgument(problems.slice(0, 1000));
  return out;
}

/** Registers the feature-flag and audit-activity controls. */
export function registerLastLoginRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/_emulator/feature_flags', allow(ADMIN), () => ({ value: featureFlags(ctx.db) }));
  app.post('/_emulator/feature_flags', allow(ADMIN), (req) => {
    const changes = parseFlags(req.body);
    return ctx.db.transaction(() => {
      const flags = { ...featureFlags(ctx.db), ...changes };
      writeSetting(ctx.db, FEATURE_FLAGS_KEY, flags);
      return { value: flags };
    })();
  });

  app.post('/_emulator/idp_audit_activity', { ...allow(ADMIN), bodyLimit: AUDIT_BODY_LIMIT }, (req) => {
    const logins = parseLogins(req.body);
    return ctx.db.transaction(() => {
      const stored = auditCount(ctx.db);
      if (stored + logins.length > MAX_AUDIT_ROWS)
        throw badField(
          'values',
          `at most ${MAX_AUDIT_ROWS} logins are stored (${stored} now): DELETE /_emulator/idp_audit_activity first`,
        );
      addAuditLogins(ctx.db, logins);
      return { added: logins.length, stored: stored + logins.length };
    })();
  });
  app.get<{ Querystring: Record<string, unknown> }>('/_emulator/idp_audit_activity', allow(ADMIN), (req) => ({
    values: auditLogins(ctx.db, {
      idpAppId: text(req.query, 'idp_app_id'),
      limit: count(req.query, 'limit', 1000, MAX_AUDIT_ROWS),
    }),
  }));
  app.delete<{ Querystring: Record<string, unknown> }>(
    '/_emulator/idp_audit_activity',
    allow(ADMIN),
    (req) => ({
      deleted: clearAuditLogins(ctx.db, text(req.query, 'idp_app_id')),
    }),
  );
}
