/**
 * Every route of the emulator.
 *
 * Every route declares who may call it, as its options argument:
 *
 *   app.get(path, allow(ANY_KEY), handler)              // any active key: the OAA endpoints
 *   app.put(path, allow(ADMIN_OR_MONITORING), handler)  // the spec's /api/private/ endpoints
 *   app.post(path, allow(ADMIN), handler)               // the /_emulator controls
 *   app.get(path, allow(PUBLIC), handler)               // no key; nothing in the spec is public
 *   app.get(path, allow(SESSION), handler)              // a signed-in console user (cookie)
 *   app.get(path, allow(OAUTH_TOKEN, { scopes }), h)    // an OAuth2 access token only
 *
 * ANY_KEY routes also take OAuth2 access tokens with the `oaa:integrations` scope; any route can
 * name other scopes with `allow(access, { scopes: [...] })`.
 *
 * (`allow` and the role lists: auth/route-access.ts.) A route without a declaration stops the
 * emulator at start-up. The check runs on the route fastify matched, so no spelling of a path can
 * reach a route under another route's access; route-access.test.ts walks every registered route.
 */
import type { FastifyInstance } from 'fastify';
import { registerConsoleRoutes } from '../console/server/routes.js';
import type { EmulatorContext } from '../context.js';
import { registerAccessRoutes } from './admin-access.js';
import { registerAccessRequestSettingsRoutes } from './access-request-settings.js';
import { registerApiKeyRoutes } from './admin-api-keys.js';
import { registerCallRoutes } from './admin-calls.js';
import { registerClockRoutes } from './admin-clock.js';
import { registerFaultRoutes } from './admin-faults.js';
import { registerGraphRoutes } from './admin-graph.js';
import { registerLastLoginRoutes } from './admin-last-login.js';
import { registerParseFailureRoutes } from './admin-parse-failures.js';
import { registerRouteListRoutes } from './admin-routes.js';
import { registerSubscriptionRoutes } from './admin-subscriptions.js';
import { registerOAuthAppRoutes } from './admin-oauth-apps.js';
import { registerUserRoutes } from './admin-users.js';
import { registerConsoleLoginRoutes } from '../console/server/login-routes.js';
import { registerOAuthAuthorizeRoutes } from './oauth-authorize.js';
import { registerOAuthTokenRoutes } from './oauth-token.js';
import { registerConfigurationRoutes } from './configurations.js';
import { registerDataSourceRoutes } from './datasources.js';
import { registerEmailTemplateRoutes } from './email-templates.js';
import { registerEventRoutes } from './events.js';
import { registerIconRoutes } from './icons.js';
import { registerNodeQueryRoutes } from './node-query.js';
import { registerProviderRoutes } from './providers.js';
import { registerTagRoutes } from './tags.js';

/** Registers the service routes and the `/_emulator` test controls. */
export function registerRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerProviderRoutes(app, ctx);
  registerIconRoutes(app, ctx);
  registerDataSourceRoutes(app, ctx);
  registerConfigurationRoutes(app, ctx);
  registerTagRoutes(app, ctx);
  registerNodeQueryRoutes(app, ctx);
  registerEmailTemplateRoutes(app, ctx);
  registerAccessRequestSettingsRoutes(app, ctx);
  registerApiKeyRoutes(app, ctx);
  registerFaultRoutes(app, ctx);
  registerClockRoutes(app, ctx);
  registerCallRoutes(app, ctx);
  registerGraphRoutes(app, ctx);
  registerAccessRoutes(app, ctx);
  registerLastLoginRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  registerSubscriptionRoutes(app, ctx);
  registerParseFailureRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerConsoleLoginRoutes(app, ctx);
  registerOAuthAppRoutes(app, ctx);
  registerOAuthAuthorizeRoutes(app, ctx);
  registerOAuthTokenRoutes(app, ctx);
  registerConsoleRoutes(app, ctx);
  registerRouteListRoutes(app);
}
