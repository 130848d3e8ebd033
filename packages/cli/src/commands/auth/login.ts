import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { authUrl } from '../../auth/auth-url.js';
import { checkApiKey, rejectedKey } from '../../auth/check-key.js';
import { readApiKey } from '../../auth/read-secret.js';
import { BaseCommand } from '../../base-command.js';
import { writeSavedUrl } from '../../target/saved-login.js';

/** `oaa auth login`: stores an API key in the OS keychain. */
export default class AuthLogin extends BaseCommand {
  static override summary = 'Store the API key of a service URL in the OS keychain.';
  static override description = `The key is read from stdin (--api-key-stdin, or whenever stdin is not a terminal) or typed at a hidden prompt, never taken as an argument, so it stays out of shell history. It is checked against the service (unless --no-verify), stored in the OS keychain under the URL, and the URL is remembered so later commands use it without --url.`;

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
  ];

  static override flags = {
    url: Flags.string({ description: 'service URL (default: OAA_URL, then the last login)' }),
    'api-key-stdin': Flags.boolean({ description: 'read the API key from stdin' }),
    verify: Flags.boolean({
      description: 'check the key against the service before storing it',
      default: true,
      allowNo: true,
    }),
  };

  async run(): Promise<{ url: string; stored: true; verified: boolean }> {
    const { flags } = await this.parse(AuthLogin);
    const target = await authUrl(flags.url, this.config.configDir);
    if (target === undefined)
      throw new OaaError('no service URL to log in to', {
        code: 'USAGE',
        hints: ['pass --url https://tenant.example.com'],
      });
    const apiKey = await readApiKey({
      fromStdin: flags['api-key-stdin'],
      prompt: `API key for ${target.url}: `,
    });
    this.addSecret(apiKey);
    if (flags.verify && (await checkApiKey(target.url, apiKey, this.signal)) === 'rejected')
      throw rejectedKey(target.url);
    const { saveApiKey } = await import('@oaakit/runner');
    await saveApiKey(target.url, apiKey);
    await writeSavedUrl(this.config.configDir, target.url);
    this.log(
      `Logged in to ${target.url}; the API key is in the OS keychain${flags.verify ? ' (the service accepted it)' : ''}.`,
    );
    return { url: target.url, stored: true, verified: flags.verify };
  }
}
