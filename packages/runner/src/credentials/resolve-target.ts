/**
 * Which service to push to and with which API key. The URL comes from the flag, then `OAA_URL`,
 * then the config's `target.url`; the key from the flag, then `OAA_API_KEY`, then the config's
 * `target.credential` reference, then the OS keychain entry of the URL: its API key (`oaa auth
 * login`), else its OAuth2 login (`oaa auth login --oauth`), which refreshes itself.
 */
import type { OAuthCredential } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { TargetConfig } from '../config/schema.js';
import { KEYCHAIN_SERVICE, accountOf, readKeychain } from './keychain.js';
import { getOAuthLogin, oauthCredentialOf } from './oauth-keychain.js';
import { resolveSecretReference } from './secrets.js';
import type { SecretSources } from './secrets.js';

/** Where a value came from, for `oaa auth status` and logs. */
export type CredentialSource = 'flag' | 'env' | 'config' | 'keychain';

/** A resolved target. The key is never logged; `toJSON` hides it. */
export interface ResolvedTarget {
  url: string;
  /** The API key, or for an OAuth2 login the access token it started with. */
  apiKey: string;
  /** An OAuth2 login from the keychain: pass it to `createClient` as `apiKey`, so it refreshes itself. */
  credential?: OAuthCredential;
  urlSource: Exclude<CredentialSource, 'keychain'>;
  apiKeySource: CredentialSource;
}

/** Options of {@link resolveTarget}. */
export interface ResolveTargetOptions extends SecretSources {
  /** `--url` and `--api-key` flags. */
  flags?: { url?: string | undefined; apiKey?: string | undefined };
  /** The config file's `target`, if any. */
  target?: TargetConfig | undefined;
}

/**
 * The target to push to, or undefined when no URL is configured anywhere (the CLI then uses the
 * embedded emulator). Throws `CREDENTIALS_MISSING` when a URL is known but no key is found.
 *
 * @example
 * const target = await resolveTarget({ flags: { url: flags.url }, target: loaded.config.target });
 * if (target === undefined) startEmbeddedEmulator();
 */
export async function resolveTarget(options: ResolveTargetOptions = {}): Promise<ResolvedTarget | undefined> {
  const env = options.env ?? process.env;
  const flagUrl = options.flags?.url;
  const url = flagUrl || env['OAA_URL'] || options.target?.url;
  if (!url) return undefined;
  const urlSource = flagUrl ? 'flag' : env['OAA_URL'] ? 'env' : 'config';

  const flagKey = options.flags?.apiKey;
  if (flagKey) return hidden({ url, apiKey: flagKey, urlSource, apiKeySource: 'flag' });
  const envKey = env['OAA_API_KEY'];
  if (envKey) return hidden({ url, apiKey: envKey, urlSource, apiKeySource: 'env' });
  if (options.target?.credential !== undefined) {
    const value = await resolveSecretReference(options.target.credential, options);
    if (value !== undefined) return hidden({ url, apiKey: value, urlSource, apiKeySource: 'config' });
  }
  let keychainProblem: string | undefined;
  try {
    const read = options.keychain ?? readKeychain;
    const value = await read(KEYCHAIN_SERVICE, accountOf(url));
    if (value !== undefined) return hidden({ url, apiKey: value, urlSource, apiKeySource: 'keychain' });
    const login = await getOAuthLogin(url, read);
    if (login !== undefined) {
      const credential = oauthCredentialOf(url, login);
      return hidden({
        url,
        apiKey: login.tokens.accessToken,
        credential,
        urlSource,
        apiKeySource: 'keychain',
      });
    }
  } catch (error) {
    keychainProblem = error instanceof Error ? error.message : String(error);
  }
  const hints = [
    `run \`oaa auth login\` to store an API key for ${url} in the OS keychain`,
    'or log in with OAuth2: `oaa auth login --oauth --client-id <CLIENT_ID>`',
    'or set OAA_API_KEY',
  ];
  if (options.target?.credential !== undefined)
    hints.push(`or set what target.credential (${options.target.credential}) points at`);
  if (keychainProblem !== undefined) hints.push(`the OS keychain could not be read: ${keychainProblem}`);
  throw new OaaError(`no API key for ${url}`, {
    code: RUNNER_ERROR_CODES.CREDENTIALS_MISSING,
    details: { url, keychainReadable: keychainProblem === undefined },
    hints,
  });
}

function hidden(target: ResolvedTarget): ResolvedTarget {
  Object.defineProperty(target, 'toJSON', {
    enumerable: false,
    value: () => ({
      url: target.url,
      urlSource: target.urlSource,
      apiKeySource: target.apiKeySource,
      oauth: target.credential !== undefined,
    }),
  });
  Object.defineProperty(target, 'apiKey', { enumerable: false, value: target.apiKey });
  if (target.credential !== undefined)
    Object.defineProperty(target, 'credential', { enumerable: false, value: target.credential });
  return target;
}
