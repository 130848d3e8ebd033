/**
 * What `oaa auth login --oauth` needs around the runner's `oauthLogin`: the client secret (never an
 * argument: `OAA_OAUTH_CLIENT_SECRET`, stdin, or a hidden prompt) and a browser to open.
 */
import { spawn } from 'node:child_process';
import { OaaError } from '@oaakit/core';
import { promptHidden, readStdin } from './read-secret.js';

/** The client secret: `OAA_OAUTH_CLIENT_SECRET`, else stdin (`--client-secret-stdin` or no terminal), else a prompt. */
export async function readClientSecret(options: { fromStdin: boolean; clientId: string }): Promise<string> {
  const env = process.env['OAA_OAUTH_CLIENT_SECRET'];
  if (env) return env;
  const interactive = !options.fromStdin && process.stdin.isTTY;
  const secret = interactive
    ? await promptHidden(`Client secret of ${options.clientId}: `)
    : await readStdin();
  if (secret === '') {
    throw new OaaError('no client secret was given', {
      code: 'CREDENTIALS_MISSING',
      hints: ['set OAA_OAUTH_CLIENT_SECRET, pipe it with --client-secret-stdin, or type it at the prompt'],
    });
  }
  return secret;
}

/** Opens `url` in the desktop's browser; false when no opener could be started. */
export function openBrowser(url: string): Promise<boolean> {
  const command =
    process.platform === 'darwin'
      ? { file: 'open', args: [url] }
      : process.platform === 'win32'
        ? { file: 'rundll32', args: ['url.dll,FileProtocolHandler', url] }
        : { file: 'xdg-open', args: [url] };
  return new Promise((resolve) => {
    try {
      const child = spawn(command.file, command.args, { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
