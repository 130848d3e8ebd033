/**
 * Reads an API key without it ever being a command-line argument: piped on stdin, or typed at a
 * hidden prompt on a terminal.
 */
import { OaaError } from '@oaakit/core';

/** All of stdin, trimmed (`--api-key-stdin`, or stdin not a terminal). */
export async function readStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Reads one line at a terminal with echo off; Ctrl-C cancels. */
export function promptHidden(
  prompt: string,
  stdin: NodeJS.ReadStream = process.stdin,
  out: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      out.write('\n');
      if (error === undefined) resolve(value.trim());
      else reject(error);
    };
    const onData = (data: Buffer): void => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new OaaError('cancelled', { code: 'ABORTED' }));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    out.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The key from stdin or a hidden prompt; `CREDENTIALS_MISSING` when it is empty. */
export async function readApiKey(options: { fromStdin: boolean; prompt: string }): Promise<string> {
  const interactive = !options.fromStdin && process.stdin.isTTY;
  const key = interactive ? await promptHidden(options.prompt) : await readStdin();
  if (key === '') {
    throw new OaaError('no API key was given', {
      code: 'CREDENTIALS_MISSING',
      hints: [
        'pipe the key on stdin, e.g. `printenv MY_KEY | oaa auth login --url URL --api-key-stdin`, or type it at the prompt',
      ],
    });
  }
  return key;
}
