/**
 * `POST /oauth/token` (form-encoded; client authentication by `client_id` and `client_secret` in the
 * form or HTTP Basic) and `GET /oauth/userinfo` (an access token with the `profile` scope). Errors of
 * the token endpoint are RFC 6749 §5.2 bodies: `{ error, error_description }`.
 */
import { pkceChallenge } from '@oaakit/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authorize.js';
import { allow, OAUTH_TOKEN, PUBLIC } from '../auth/route-access.js';
import { sameSecret } from '../console/auth/request-session.js';
import { findUser } from '../console/auth/users.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../errors.js';
import { authenticateClient } from '../oauth/apps.js';
import { consumeCode } from '../oauth/codes.js';
import { issuePair, revokeFamily, rotateRefreshToken } from '../oauth/tokens.js';

type TokenError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

class OAuthError extends Error {
  constructor(
    readonly error: TokenError,
    readonly description: string,
  ) {
    super(description);
  }
}

const FIELDS = [
  'grant_type',
  'client_id',
  'client_secret',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'scope',
];
// RFC 7636 §4.1: 43 to 128 unreserved characters.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function fieldsOf(req: FastifyRequest): Record<string, string> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw new OAuthError(
      'invalid_request',
      'the request must be form-encoded (Content-Type: application/x-www-form-urlencoded)',
    );
  const body = (req.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const name of FIELDS) {
    const v = body[name];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} must be given once`);
    if (v.length > 2048) throw new OAuthError('invalid_request', `${name} must be at most 2048 characters`);
    out[name] = v;
  }
  return out;
}

/** The client credentials: HTTP Basic (RFC 6749 §2.3.1) or the form's client_id and client_secret. */
function clientCredentials(
  req: FastifyRequest,
  form: Record<string, string>,
): { id: string; secret: string; basic: boolean } {
  const header = req.headers.authorization;
  const basic = header === undefined ? undefined : /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header);
  if (basic) {
    const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon === -1)
      throw new OAuthError('invalid_client', 'the Basic credentials must be client_id:client_secret');
    const decode = (s: string): string => decodeURIComponent(s.replaceAll('+', ' '));
    try {
      return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)), basic: true };
    } catch {
      throw new OAuthError('invalid_client', 'the Basic credentials are not form-encoded');
    }
  }
  if (form.client_id === undefined) throw new OAuthError('invalid_request', 'client_id is required');
  if (form.client_secret === undefined) throw new OAuthError('invalid_client', 'client_secret is required');
  return { id: form.client_id, secret: form.client_secret, basic: false };
}

/** Registers the token and userinfo endpoints. */
export function registerOAuthTokenRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const sendOAuthError = (reply: FastifyReply, err: OAuthError, basic: boolean): FastifyReply => {
    const status = err.error === 'invalid_client' ? 401 : 400;
    if (status === 401 && basic) void reply.header('www-authenticate', 'Basic realm="oauth"');
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .send({ error: err.error, error_description: err.description });
  };

  app.post(
    '/oauth/token',
    {
      ...allow(PUBLIC),
      // Body errors (too large, unknown media type) also answer in RFC 6749's shape.
      errorHandler: (err, _req, reply) => {
        const status = (err as { statusCode?: number }).statusCode;
        if (status !== undefined && status >= 400 && status < 500) {
          void sendOAuthError(reply, new OAuthError('invalid_request', err.message), false);
          return;
        }
        ctx.logger.error({ err: err.message }, 'token endpoint failed');
        void reply.code(500).send({ error: 'server_error', error_description: 'internal error' });
      },
    },
    (req, reply) => {
      let basic = false;
      try {
        const form = fieldsOf(req);
        const client = clientCredentials(req, form);
        basic = client.basic;
        if (form.client_id !== undefined && form.client_id !== client.id)
          throw new OAuthError('invalid_request', 'client_id differs from the authenticated client');
        const grantType = form.grant_type;
        if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
        if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
          throw new OAuthError(
            'unsupported_grant_type',
            'grant_type must be authorization_code or refresh_token',
          );
        const nowMs = ctx.clock.nowMs();
        const authenticated = authenticateClient(ctx.db, client.id, client.secret, ctx.clock.iso());
        if (!authenticated)
          throw new OAuthError(
            'invalid_client',
            'unknown client, wrong client secret, or the app is revoked',
          );
        void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        if (grantType === 'refresh_token') {
          if (form.refresh_token === undefined)
            throw new OAuthError('invalid_request', 'refresh_token is required');
          const refreshed = rotateRefreshToken(ctx.db, form.refresh_token, client.id, nowMs);
          if (refreshed.kind === 'reused')
            throw new OAuthError(
              'invalid_grant',
              'the refresh token was already used; every token of this grant is now revoked',
            );
          if (refreshed.kind === 'invalid') throw new OAuthError('invalid_grant', refreshed.reason);
          return refreshed.pair;
        }
        for (const name of ['code', 'redirect_uri', 'code_verifier'])
          if (form[name] === undefined) throw new OAuthError('invalid_request', `${name} is required`);
        if (!VERIFIER.test(form.code_verifier!))
          throw new OAuthError(
            'invalid_request',
            'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~',
          );
        const consumed = consumeCode(ctx.db, form.code!, nowMs);
        if (consumed.kind === 'reused') {
          revokeFamily(ctx.db, consumed.family, nowMs);
          throw new OAuthError(
            'invalid_grant',
            'the authorization code was already used; the tokens issued from it are revoked',
          );
        }
        if (consumed.kind === 'unknown')
          throw new OAuthError('invalid_grant', 'the authorization code is unknown');
        if (consumed.kind === 'expired')
          throw new OAuthError('invalid_grant', 'the authorization code has expired (10 minutes)');
        const { grant } = consumed;
        if (grant.clientId !== client.id)
          throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
        if (grant.redirectUri !== form.redirect_uri)
          throw new OAuthError(
            'invalid_grant',
            'redirect_uri differs from the one of the authorization request',
          );
        if (!sameSecret(pkceChallenge(form.code_verifier!), grant.codeChallenge))
          throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
        return issuePair(
          ctx.db,
          { clientId: client.id, userId: grant.userId, family: consumed.family, scope: grant.scope },
          nowMs,
        );
      } catch (err) {
        if (err instanceof OAuthError) return sendOAuthError(reply, err, basic);
        throw err;
      }
    },
  );

  app.get('/oauth/userinfo', allow(OAUTH_TOKEN, { scopes: ['profile'] }), (req) => {
    const principal = principalOf(req);
    const user = principal?.kind === 'token' ? findUser(ctx.db, principal.grant.userId) : undefined;
    if (!user)
      throw new ApiError('Unauthenticated', { message: 'the access token is invalid, expired or revoked' });
    const { sub, email, given_name, family_name, name } = user;
    return { sub, email, given_name, family_name, name };
  });
}
