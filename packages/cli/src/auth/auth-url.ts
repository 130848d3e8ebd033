/** Which URL the `oaa auth` commands are about: `--url`, then `OAA_URL`, then the last login. */
import { readSavedUrl } from '../target/saved-login.js';

/** A URL and where it came from. */
export interface AuthUrl {
  url: string;
  source: 'flag' | 'env' | 'login';
}

/** The URL, or undefined when none is known. */
export async function authUrl(flagUrl: string | undefined, configDir: string): Promise<AuthUrl | undefined> {
  if (flagUrl) return { url: flagUrl, source: 'flag' };
  const envUrl = process.env['OAA_URL'];
  if (envUrl) return { url: envUrl, source: 'env' };
  const saved = await readSavedUrl(configDir);
  return saved === undefined ? undefined : { url: saved, source: 'login' };
}
