import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { authUrl } from '../../auth/auth-url.js';
import { checkApiKey, rejectedKey } from '../../auth/check-key.js';
import { openBrowser, readClientSecret } from '../../auth/oauth-flow.js';
import { readApiKey } from '../../auth/read-secret.js';
import { BaseCommand } from '../../base-command.js';
import { writeSavedUrl } from '../../target/saved-login.js';

/** What `oaa auth login --json` prints. */
interface LoginOutput {
  url: string;
  stored: true;
  verified: boolean;
  /** `api_key`, or `oauth` for an OAuth2 login. */
  kind: 'api_key' | 'oauth';
  scope?: string;
}

const DEFAULT_SCOPES = ['profile', 'oaa:integrations'];

/** `oaa auth login`: stores an API key, or an OAuth2 login, in the OS keychain. */
export default class AuthLogin extends BaseCommand {
  static override summary = 'Store the API key (or an OAuth2 login) of a service URL in the OS keychain.';
  static override description = `The key is read from stdin (--api-key-stdin, or whenever stdin is not a terminal) or typed at a hidden prompt, never taken as an argument, so it stays out of shell history. It is checked against the service (unless --no-verify), stored in the OS keychain under the URL, and the URL is remembered so later commands use it without --url.

With --oauth, logs in through an OAuth2 app instead (authorization code flow with PKCE S256, RFC 8252 loopback redirect on 127.0.0.1 and a random port): the browser opens on the consent page (or, with --no-browser, the URL is printed on stderr to open anywhere). Register http://127.0.0.1/callback as the app's redirect URI. The client secret comes from OAA_OAUTH_CLIENT_SECRET, stdin (--client-secret-stdin) or a prompt. The tokens are kept in the OS keychain and refreshed before they expire; every command then uses the login. A login replaces the earlier one of the same URL.`;

  static override examples = [
    {
      description: 'Type the key at a prompt',
      command: '<%= config.bin %> <%= command.id %> --url https://tenant.example.com',
    },
    {
      description: 'From a secret store, in CI',
      command:
        'printenv OAA_KEY | <%= config.bin %> <%= command.id %> --url https://tenant.example.com --api-key-stdin',
    },
    {
      description: 'Log in with an OAuth2 app in the browser',
      command:
        '<%= config.bin %> <%= command.id %> --url https://tenant.example.com --oauth --client-id 6f1c... --scope profile --scope oaa:integrations',
    },
    {
      description: 'OAuth2 on a machine without a browser: print the URL',
      command:
        'OAA_OAUTH_CLIENT_SECRET=... <%= config.bin %> <%= command.id %> --oauth --client-id 6f1c... --no-browser',
    },
  ];

  static override flags = {
    url: Flags.string({ description: 'service URL (default: OAA_URL, then the last login)' }),
    'api-key-stdin': Flags.boolean({ description: 'read the API key from stdin' }),
    verify: Flags.boolean({
      description: 'check the key against the service before storing it',
      default: true,
      allowNo: true,
    }),
    oauth: Flags.boolean({ description: 'log in with an OAuth2 app (browser, PKCE) instead of an API key' }),
    'client-id': Flags.string({
      description: 'client id of the OAuth2 app (with --oauth)',
      dependsOn: ['oauth'],
    }),
    'client-secret-stdin': Flags.boolean({
      description: 'read the client secret from stdin (default: OAA_OAUTH_CLIENT_SECRET, else a prompt)',
      dependsOn: ['oauth'],
    }),
    scope: Flags.string({
      description: `scope to ask for (repeatable; default: ${DEFAULT_SCOPES.join(' ')})`,
      multiple: true,
      dependsOn: ['oauth'],
    }),
    browser: Flags.boolean({
      description: 'open the browser on the consent page (--no-browser prints the URL only)',
      default: true,
      allowNo: true,
    }),
  };

  async run(): Promise<LoginOutput> {
    const { flags } = await this.parse(AuthLogin);
    const target = await authUrl(flags.url, this.config.configDir);
    if (target === undefined)
      throw new OaaError('no service URL to log in to', {
        code: 'USAGE',
        hints: ['pass --url https://tenant.example.com'],
      });
    if (flags.oauth) return this.oauthLogin(target.url, flags);
    const apiKey = await readApiKey({
      fromStdin: flags['api-key-stdin'],
      prompt: `API key for ${target.url}: `,
    });
    this.addSecret(apiKey);
    if (flags.verify && (await checkApiKey(target.url, apiKey, this.signal)) === 'rejected')
      throw rejectedKey(target.url);
    const { saveApiKey, deleteOAuthLogin } = await import('@oaakit/runner');
    await saveApiKey(target.url, apiKey);
    await deleteOAuthLogin(target.url);
    await writeSavedUrl(this.config.configDir, target.url);
    this.log(
      `Logged in to ${target.url}; the API key is in the OS keychain${flags.verify ? ' (the service accepted it)' : ''}.`,
    );
    return { url: target.url, stored: true, verified: flags.verify, kind: 'api_key' };
  }

  private async oauthLogin(
    url: string,
    flags: {
      'client-id'?: string | undefined;
      'client-secret-stdin': boolean;
      scope?: string[] | undefined;
      browser: boolean;
      verify: boolean;
    },
  ): Promise<LoginOutput> {
    const clientId = flags['client-id'];
    if (clientId === undefined)
      throw new OaaError('--oauth needs --client-id', {
        code: 'USAGE',
        hints: ['pass --client-id of the OAuth2 app'],
      });
    const clientSecret = await readClientSecret({ fromStdin: flags['client-secret-stdin'], clientId });
    this.addSecret(clientSecret);
    const scopes = flags.scope?.flatMap((s) => s.split(' ')).filter((s) => s !== '') ?? DEFAULT_SCOPES;
    const runner = await import('@oaakit/runner');
    const tokens = await runner.oauthLogin({
      url,
      clientId,
      clientSecret,
      scopes,
      signal: this.signal,
      open: async (authorizationUrl) => {
        const opened = flags.browser && (await openBrowser(authorizationUrl));
        this.note(
          opened
            ? `Opened the browser to log in. If it did not show, open this URL: ${authorizationUrl}`
            : `Open this URL in a browser to log in: ${authorizationUrl}`,
        );
      },
    });
    this.addSecret(tokens.accessToken);
    this.addSecret(tokens.refreshToken);
    // The exchange proved the login; a read of the OAA endpoints also proves the scope reaches them.
    const verified = flags.verify && tokens.scope.split(' ').includes('oaa:integrations');
    if (verified && (await checkApiKey(url, tokens.accessToken, this.signal)) === 'rejected')
      throw rejectedKey(url);
    await runner.saveOAuthLogin(url, { clientId, clientSecret, tokens });
    await runner.deleteApiKey(url);
    await writeSavedUrl(this.config.configDir, url);
    this.log(`Logged in to ${url} with OAuth2 (scope ${tokens.scope}); the tokens are in the OS keychain.`);
    return { url, stored: true, verified, kind: 'oauth', scope: tokens.scope };
  }
}
