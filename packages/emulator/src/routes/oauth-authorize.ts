/**
 * `GET /oauth/authorize` and the consent form's `POST /oauth/authorize`.
 *
 * The GET is declared PUBLIC because headless consent (`/_emulator/oauth/auto_consent`) answers it
 * without a session; after every check of the request it sends a visitor without a session to the
 * sign-in page, which comes back here. The consent POST needs the session and its CSRF token.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { allow, PUBLIC, SESSION } from '../auth/route-access.js';
import { sendPage } from '../console/pages/html.js';
import {
  checkCsrf,
  csrfToken,
  formField,
  requireSession,
  sessionOf,
  signInUrl,
} from '../console/auth/request-session.js';
import { findUser } from '../console/auth/users.js';
import type { EmulatorContext } from '../context.js';
import {
  AUTHORIZE_FIELDS,
  checkAuthorizeRequest,
  redirectWith,
  type AuthorizeFailure,
  type AuthorizeRequest,
} from '../oauth/authorize-request.js';
import { getAutoConsent } from '../oauth/auto-consent.js';
import { issueCode } from '../oauth/codes.js';
import { authorizeErrorPage, consentPage } from '../console/pages/consent-page.js';

function isFailure(r: AuthorizeRequest | AuthorizeFailure): r is AuthorizeFailure {
  return 'error' in r;
}

/** Registers the authorization endpoint. */
export function registerOAuthAuthorizeRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const fail = (reply: FastifyReply, failure: AuthorizeFailure, status: 302 | 303): FastifyReply => {
    if (failure.redirectUri === undefined)
      return sendPage(reply, authorizeErrorPage(failure.error, failure.description), 400);
    return reply.redirect(
      redirectWith(failure.redirectUri, {
        error: failure.error,
        error_description: failure.description,
        state: failure.state,
      }),
      status,
    );
  };
  const decide = (
    reply: FastifyReply,
    request: AuthorizeRequest,
    userId: string,
    decision: 'allow' | 'cancel',
    status: 302 | 303,
  ): FastifyReply => {
    if (decision === 'cancel')
      return reply.redirect(
        redirectWith(request.redirectUri, { error: 'access_denied', state: request.state }),
        status,
      );
    const code = issueCode(
      ctx.db,
      {
        clientId: request.app.client_id,
        userId,
        redirectUri: request.redirectUri,
        scope: request.scopes.join(' '),
        codeChallenge: request.codeChallenge,
      },
      ctx.clock.nowMs(),
    );
    return reply.redirect(redirectWith(request.redirectUri, { code, state: request.state }), status);
  };

  app.get('/oauth/authorize', allow(PUBLIC), (req, reply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const request = checkAuthorizeRequest(ctx.db, query);
    if (isFailure(request)) return fail(reply, request, 302);
    const auto = getAutoConsent(ctx.db);
    const autoUser = auto && findUser(ctx.db, auto.userId);
    if (auto && autoUser) return decide(reply, request, autoUser.sub, auto.decision, 302);
    const session = sessionOf(ctx, req);
    if (!session) return reply.redirect(signInUrl(req), 303);
    const fields: Record<string, string> = {};
    for (const name of AUTHORIZE_FIELDS) if (typeof query[name] === 'string') fields[name] = query[name];
    return sendPage(
      reply,
      consentPage({ request, fields, userEmail: session.user.email, csrfToken: csrfToken(session) }),
    );
  });

  app.post('/oauth/authorize', allow(SESSION), (req, reply) => {
    const session = requireSession(req);
    checkCsrf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const request = checkAuthorizeRequest(ctx.db, body);
    if (isFailure(request)) return fail(reply, request, 303);
    const decision = formField(body, 'decision');
    if (decision !== 'allow' && decision !== 'cancel')
      return sendPage(reply, authorizeErrorPage('invalid_request', 'decision must be allow or cancel'), 400);
    return decide(reply, request, session.user.sub, decision, 303);
  });
}
