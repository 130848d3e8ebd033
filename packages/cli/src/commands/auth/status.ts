import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { authUrl } from '../../auth/auth-url.js';
import { checkApiKey, rejectedKey } from '../../auth/check-key.js';
import { BaseCommand } from '../../base-command.js';
import { renderFields } from '../../output/table.js';

/** What `oaa auth status --json` prints. */
interface StatusOutput {
  url: string | null;
  urlSource: 'flag' | 'env' | 'login' | null;
  /** `oauth` for an OAuth2 login kept in the keychain (`oaa auth login --oauth`). */
  apiKeySource: 'env' | 'keychain' | 'oauth' | null;
  /** `accepted`, `rejected`, or null when not checked. */
  check: 'accepted' | 'rejected' | null;
}

/** `oaa auth status`: which target commands use, and whether its key works. */
export default class AuthStatus extends BaseCommand {
  static override summary = 'Show which service commands use and whether its API key works.';
  static override description = `Shows the service URL (from --url, OAA_URL or the last login), where its API key comes from (OAA_API_KEY or the OS keychain) and whether the service accepts it. Exits non-zero when a URL is set but its key is missing or refused. Without any URL, commands use the embedded emulator.`;

  static override examples = [
    { description: 'Check the current login', command: '<%= config.bin %> <%= command.id %>' },
  ];
  static override flags = {
    url: Flags.string({ description: 'service URL to check (default: OAA_URL, then the last login)' }),
    verify: Flags.boolean({ description: 'check the key against the service', default: true, allowNo: true }),
  };

  async run(): Promise<StatusOutput> {
    const { flags } = await this.parse(AuthStatus);
    const target = await authUrl(flags.url, this.config.configDir);
    if (target === undefined) {
      this.log('Not logged in: commands use the embedded emulator. Log in with `oaa auth login --url URL`.');
      return { url: null, urlSource: null, apiKeySource: null, check: null };
    }
    const envKey = process.env['OAA_API_KEY'];
    this.addSecret(envKey);
    const { getApiKey, getOAuthLogin, oauthCredentialOf } = await import('@oaakit/runner');
    let apiKey = envKey || (await getApiKey(target.url));
    let oauth = false;
    if (apiKey === undefined) {
      const login = await getOAuthLogin(target.url);
      if (login !== undefined) {
        this.addSecret(login.clientSecret);
        this.addSecret(login.tokens.refreshToken);
        // The current access token, refreshed (and stored) first when it is about to expire.
        apiKey = await oauthCredentialOf(target.url, login).bearer();
        oauth = true;
      }
    }
    if (apiKey === undefined) {
      throw new OaaError(`no API key for ${target.url}`, {
        code: 'CREDENTIALS_MISSING',
        details: { url: target.url },
        hints: [`run \`oaa auth login --url ${target.url}\``, 'or set OAA_API_KEY'],
      });
    }
    this.addSecret(apiKey);
    const check = flags.verify ? await checkApiKey(target.url, apiKey, this.signal) : null;
    if (check === 'rejected') throw rejectedKey(target.url);
    const output: StatusOutput = {
      url: target.url,
      urlSource: target.source,
      apiKeySource: envKey ? 'env' : oauth ? 'oauth' : 'keychain',
      check,
    };
    this.log(
      renderFields([
        [
          'url',
          `${output.url} (from ${target.source === 'login' ? 'the last login' : target.source === 'env' ? 'OAA_URL' : '--url'})`,
        ],
        ['API key', envKey ? 'OAA_API_KEY' : oauth ? 'OAuth2 login (OS keychain)' : 'OS keychain'],
        ['check', check ?? 'not checked'],
      ]),
    );
    return output;
  }
}
