/**
 * `/_emulator/oauth_apps` (admin): OAuth2 app management, which the service does in its
 * administration interface (spec: no API shown). Create (answers the first client secret, once),
 * list, get, add and delete secrets (at most 2), `:revoke` (every token fails at once), `:reinstate`,
 * delete (with secrets, codes and tokens). Each change records an event. Also
 * `/_emulator/oauth/auto_consent`, the headless consent for CI.
 */
import {
  autoConsentSchema,
  MAX_CLIENT_SECRETS,
  oauthAppCreateSchema,
  type OAuthApp,
  type OAuthAppCreate,
} from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import { recordAdminEvent } from '../console/auth/admin-events.js';
import { findUser } from '../console/auth/users.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, badField, invalidArgument, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { splitAction } from '../http/split-action.js';
import {
  addSecret,
  createApp,
  deleteApp,
  deleteSecret,
  getApp,
  listApps,
  reinstateApp,
  revokeApp,
} from '../oauth/apps.js';
import { getAutoConsent, setAutoConsent } from '../oauth/auto-consent.js';
import { checkAppUrls } from '../oauth/redirect-uris.js';

const BASE = '/_emulator/oauth_apps';
/** Most OAuth2 apps the emulator holds. */
export const MAX_OAUTH_APPS = 1000;

/** The body of a create, with the schema's and the URL rules' violations reported together. */
function parseAppInput(body: unknown): OAuthAppCreate {
  let schemaError: ApiError | undefined;
  try {
    const input = parseBody(oauthAppCreateSchema, body);
    const violations = checkAppUrls({
      ...input,
      allow_any_redirect_uri: input.allow_any_redirect_uri ?? false,
    });
    if (violations.length > 0) throw invalidArgument(violations);
    return input;
  } catch (err) {
    if (!(err instanceof ApiError) || err.violations.length === 0) throw err;
    schemaError = err;
  }
  // The schema failed: add the URL rules' verdict on what can be read, so one answer names every problem.
  const raw = body as Record<string, unknown>;
  const urls = Array.isArray(raw.redirect_uris) ? raw.redirect_uris.filter((u) => typeof u === 'string') : [];
  if (typeof raw.base_url !== 'string' || urls.length !== (raw.redirect_uris as unknown[]).length)
    throw schemaError;
  const named = new Set(schemaError.violations.map((v) => v.field));
  const more = checkAppUrls({
    base_url: raw.base_url,
    redirect_uris: urls,
    allow_any_redirect_uri: raw.allow_any_redirect_uri === true,
  }).filter((v) => !named.has(v.field));
  throw invalidArgument([...schemaError.violations, ...more]);
}

/** Registers the OAuth2 app administration routes. */
export function registerOAuthAppRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const event = (a: OAuthApp, eventType: string, name: string, message: string): void => {
    recordAdminEvent(ctx.db, {
      at: ctx.clock.iso(),
      eventType,
      name,
      message,
      entityId: a.client_id,
      entityName: a.client_name,
    });
  };
  const existing = (clientId: string): OAuthApp => {
    const found = getApp(ctx.db, clientId);
    if (!found) throw notFound('oauth_app', clientId);
    return found;
  };

  app.post(BASE, allow(ADMIN), (req) => {
    const input = parseAppInput(req.body);
    if (listApps(ctx.db).length >= MAX_OAUTH_APPS)
      throw badField('body', `the emulator holds at most ${MAX_OAUTH_APPS} OAuth2 apps; delete one first`);
    const { app: created, secret } = createApp(ctx.db, input, ctx.clock.iso());
    event(created, 'API_KEY_CREATED', 'OAuth2 app created', `OAuth2 app ${created.client_name} was created`);
    return { value: { ...created, ...secret } };
  });

  app.get(BASE, allow(ADMIN), () => ({ values: listApps(ctx.db) }));

  app.get<{ Params: { client_id: string } }>(`${BASE}/:client_id`, allow(ADMIN), (req) => ({
    value: existing(req.params.client_id),
  }));

  app.post<{ Params: { client_id: string } }>(`${BASE}/:client_id`, allow(ADMIN), (req) => {
    const { id, action } = splitAction(req.params.client_id);
    if (action !== 'revoke' && action !== 'reinstate') {
      throw new ApiError('NotFound', {
        message: `no action ${action ?? '(none)'} on an OAuth2 app: use :revoke or :reinstate`,
        resource: { type: 'endpoint', name: `POST ${BASE}/${req.params.client_id}` },
      });
    }
    const target = existing(id);
    if (action === 'revoke') {
      revokeApp(ctx.db, id, ctx.clock.iso(), ctx.clock.nowMs());
      event(
        target,
        'API_KEY_REVOKED',
        'OAuth2 app revoked',
        `OAuth2 app ${target.client_name} was revoked; its tokens no longer work`,
      );
    } else {
      reinstateApp(ctx.db, id);
      event(
        target,
        'API_KEY_REINSTATED',
        'OAuth2 app reinstated',
        `OAuth2 app ${target.client_name} was reinstated`,
      );
    }
    return { value: existing(id) };
  });

  app.delete<{ Params: { client_id: string } }>(`${BASE}/:client_id`, allow(ADMIN), (req) => {
    const target = existing(req.params.client_id);
    deleteApp(ctx.db, target.client_id);
    event(
      target,
      'API_KEY_DELETED',
      'OAuth2 app deleted',
      `OAuth2 app ${target.client_name} was deleted with its secrets and tokens`,
    );
    return {};
  });

  app.post<{ Params: { client_id: string } }>(`${BASE}/:client_id/secrets`, allow(ADMIN), (req) => {
    const target = existing(req.params.client_id);
    const secret = addSecret(ctx.db, target.client_id, ctx.clock.iso());
    if (secret === 'full') {
      throw badField(
        'client_id',
        `the app already has ${MAX_CLIENT_SECRETS} client secrets, the most allowed; delete one first`,
      );
    }
    event(
      target,
      'API_KEY_UPDATED',
      'OAuth2 app secret created',
      `A client secret of OAuth2 app ${target.client_name} was created`,
    );
    return { value: secret };
  });

  app.delete<{ Params: { client_id: string; secret_id: string } }>(
    `${BASE}/:client_id/secrets/:secret_id`,
    allow(ADMIN),
    (req) => {
      const target = existing(req.params.client_id);
      if (!deleteSecret(ctx.db, target.client_id, req.params.secret_id))
        throw notFound('client_secret', req.params.secret_id);
      event(
        target,
        'API_KEY_UPDATED',
        'OAuth2 app secret deleted',
        `A client secret of OAuth2 app ${target.client_name} was deleted`,
      );
      return {};
    },
  );

  app.post('/_emulator/oauth/auto_consent', allow(ADMIN), (req) => {
    const input = parseBody(autoConsentSchema, req.body);
    if (input.decision === null) {
      setAutoConsent(ctx.db, undefined);
      return { value: { user: null, decision: null } };
    }
    if (input.user === undefined || input.user === null)
      throw badField('user', 'is required with a decision');
    const user = findUser(ctx.db, input.user);
    if (!user) throw badField('user', `no console user ${input.user}; create it under /_emulator/users`);
    setAutoConsent(ctx.db, { userId: user.sub, decision: input.decision });
    return { value: { user: user.email, decision: input.decision } };
  });

  app.get('/_emulator/oauth/auto_consent', allow(ADMIN), () => {
    const setting = getAutoConsent(ctx.db);
    const user = setting && findUser(ctx.db, setting.userId);
    return {
      value:
        user && setting ? { user: user.email, decision: setting.decision } : { user: null, decision: null },
    };
  });
}
