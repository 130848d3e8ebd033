import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { authUrl } from '../../auth/auth-url.js';
import { BaseCommand } from '../../base-command.js';
import { deleteSavedUrl, readSavedUrl } from '../../target/saved-login.js';

/** `oaa auth logout`: removes the stored API key. */
export default class AuthLogout extends BaseCommand {
  static override summary = 'Remove the API key or OAuth2 login of a service URL from the OS keychain.';
  static override description =
    'Deletes the stored key and forgets the login, so commands use the embedded emulator again (unless OAA_URL is set).';
  static override examples = [
    { description: 'Log out of the current login', command: '<%= config.bin %> <%= command.id %>' },
  ];
  static override flags = {
    url: Flags.string({ description: 'service URL (default: OAA_URL, then the last login)' }),
  };

  async run(): Promise<{ url: string; removed: boolean }> {
    const { flags } = await this.parse(AuthLogout);
    const target = await authUrl(flags.url, this.config.configDir);
    if (target === undefined)
      throw new OaaError('not logged in', {
        code: 'USAGE',
        hints: ['pass --url to remove the key of a URL'],
      });
    const { deleteApiKey, deleteOAuthLogin } = await import('@oaakit/runner');
    const removedKey = await deleteApiKey(target.url);
    const removed = (await deleteOAuthLogin(target.url)) || removedKey;
    if ((await readSavedUrl(this.config.configDir)) === target.url)
      await deleteSavedUrl(this.config.configDir);
    this.log(
      removed
        ? `Removed the login (API key or OAuth2 tokens) of ${target.url} from the OS keychain.`
        : `No API key was stored for ${target.url}.`,
    );
    return { url: target.url, removed };
  }
}
