/**
 * OAuth2 apps, console users and the OAuth2 token answer: the request and response shapes of the
 * emulator's `/_emulator/oauth_apps`, `/_emulator/users` and `/oauth/token` (the spec shows no API for
 * managing apps; the emulator's is documented in packages/emulator/README.md, "OAuth2 apps, users and
 * the console sign-in"). The PKCE challenge both sides compute is `pkceChallenge` (../oauth/pkce.ts).
 */
import * as z from 'zod';

/**
 * The scopes an app may be allowed. `profile` and `lcm:access-requests:manage` are the spec's;
 * `oaa:integrations` is the emulator's own (the spec leaves other scopes open): it lets an access
 * token call the OAA endpoints (custom providers, data sources, pushes, tags, queries).
 */
export const OAUTH_SCOPES = ['profile', 'lcm:access-requests:manage', 'oaa:integrations'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** Whether `value` is a scope the service knows. */
export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/** Longest URL the emulator accepts for a base URL or redirect URI. */
export const MAX_OAUTH_URL_LENGTH = 2048;
/** Most redirect URIs one app may list. */
export const MAX_REDIRECT_URIS = 20;
/** Most client secrets one app may hold at a time (spec, Limits). */
export const MAX_CLIENT_SECRETS = 2;

const url = z
  .string()
  .min(1, { error: 'is required' })
  .max(MAX_OAUTH_URL_LENGTH, { error: `must be at most ${MAX_OAUTH_URL_LENGTH} characters` });

/** `POST /_emulator/oauth_apps`. */
export const oauthAppCreateSchema = z.strictObject({
  client_name: z
    .string()
    .trim()
    .min(1, { error: 'must be a non-empty string' })
    .max(200, { error: 'must be at most 200 characters' }),
  base_url: url,
  redirect_uris: z
    .array(url)
    .min(1, { error: 'must list at least one redirect URI' })
    .max(MAX_REDIRECT_URIS, { error: `must list at most ${MAX_REDIRECT_URIS} redirect URIs` }),
  allowed_scopes: z
    .array(z.enum(OAUTH_SCOPES, { error: `must be one of ${OAUTH_SCOPES.join(', ')}` }))
    .min(1, { error: 'must list at least one scope' })
    .max(OAUTH_SCOPES.length, { error: `must list at most ${OAUTH_SCOPES.length} scopes` }),
  allow_any_redirect_uri: z.boolean().optional(),
});
export type OAuthAppCreate = z.infer<typeof oauthAppCreateSchema>;

/** A client secret as listed: only its first 4 characters. */
export const oauthSecretSchema = z.object({
  secret_id: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type OAuthSecret = z.infer<typeof oauthSecretSchema>;

/** An OAuth2 app as answered by `/_emulator/oauth_apps`. */
export const oauthAppSchema = z.object({
  client_id: z.string(),
  client_name: z.string(),
  base_url: z.string(),
  redirect_uris: z.array(z.string()),
  allowed_scopes: z.array(z.string()),
  allow_any_redirect_uri: z.boolean(),
  state: z.enum(['ACTIVE', 'REVOKED']),
  created_at: z.string(),
  updated_at: z.string(),
  secrets: z.array(oauthSecretSchema),
});
export type OAuthApp = z.infer<typeof oauthAppSchema>;

/** `POST /_emulator/users`. */
export const userCreateSchema = z.strictObject({
  email: z
    .string()
    .max(254, { error: 'must be at most 254 characters' })
    .regex(/^[^\s@]+@[^\s@]+$/, { error: 'must be an email address' }),
  given_name: z
    .string()
    .trim()
    .min(1, { error: 'must be a non-empty string' })
    .max(100, { error: 'must be at most 100 characters' }),
  family_name: z
    .string()
    .trim()
    .min(1, { error: 'must be a non-empty string' })
    .max(100, { error: 'must be at most 100 characters' }),
  password: z
    .string()
    .min(8, { error: 'must be at least 8 characters' })
    .max(1024, { error: 'must be at most 1024 characters' }),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

/** A console user as listed (never the password); `sub` is the id userinfo answers. */
export const consoleUserSchema = z.object({
  sub: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  name: z.string(),
  created_at: z.string(),
});
export type ConsoleUser = z.infer<typeof consoleUserSchema>;

/** `POST /_emulator/oauth/auto_consent`: consent as `user` (email or sub) with `decision`, or off. */
export const autoConsentSchema = z.strictObject({
  user: z.string().max(254, { error: 'must be at most 254 characters' }).nullable().optional(),
  decision: z.enum(['allow', 'cancel'], { error: 'must be allow, cancel or null' }).nullable(),
});
export type AutoConsent = z.infer<typeof autoConsentSchema>;

/** The answer of `POST /oauth/token`. */
export const oauthTokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});
export type OAuthTokenResponse = z.infer<typeof oauthTokenResponseSchema>;

/** The answer of `GET /oauth/userinfo`. */
export const userInfoSchema = z.object({
  sub: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  name: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;
