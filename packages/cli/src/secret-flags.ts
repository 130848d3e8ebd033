/**
 * Flags that carry a secret: an API key, a queue URL with a password in it. A value typed on the
 * command line can be read by every user of the host in the process list (`ps`, /proc/PID/cmdline)
 * and stays in shell history, so each of these flags has two safer forms: an environment variable
 * (the flag's `env`) and a `--NAME-file PATH` flag naming a file that holds the value. The command
 * line still works, with a warning on stderr that names the flag and the safer forms, never the value.
 *
 * A flag is made a secret one with {@link secretFlags}; `BaseCommand.parse` then resolves it for
 * every command that takes it ({@link takeSecretFlag}): the command line, else the file, else the
 * environment.
 */
import { readFile } from 'node:fs/promises';
import { Flags } from '@oclif/core';
import type { Interfaces } from '@oclif/core';
import { OaaError } from '@oaakit/core';

/** Where the value of a secret flag came from. */
export type SecretSource = 'flag' | 'file' | 'env';

/** What makes a flag a secret one. */
export interface SecretFlagSpec {
  /** The flag, without its dashes: `api-key`. The file flag is this name with `-file`. */
  name: string;
  /** The environment variable that holds the value when neither flag is given. */
  env: string;
  /**
   * What a value on the command line shows to others, for the warning ("the API key"); undefined
   * when it shows nothing (a queue URL without a password).
   */
  exposes(value: string): string | undefined;
  /** Other safe ways to give the secret, named in the warning after the file and the variable. */
  alternatives?: readonly string[];
  /** A repeatable flag: the file holds one value per line. */
  multiple?: boolean;
}

/** The resolved value of a secret flag. */
export interface TakenSecret {
  /** One value, or the values of a repeatable flag. */
  value: string | string[];
  source: SecretSource;
  /** Where the value came from, for messages: `--api-key`, `--api-key-file PATH`, `OAA_API_KEY`. */
  origin: string;
  /** The warning to print when the value came from the command line. */
  warning?: string;
}

const SPECS = new WeakMap<object, SecretFlagSpec>();

/** The name of the flag that reads a secret flag's value from a file. */
export function fileFlagName(spec: SecretFlagSpec): string {
  return `${spec.name}-file`;
}

/** The spec of a flag definition, when the flag carries a secret. */
export function secretSpecOf(definition: unknown): SecretFlagSpec | undefined {
  return typeof definition === 'object' && definition !== null ? SPECS.get(definition) : undefined;
}

/** How a flag and its file flag describe themselves in `--help`. */
interface SecretFlagHelp {
  /** The flag's description; the variable and the file flag are added to it. */
  description: string;
  /** The file flag's description, e.g. "file holding the API key, on one line". */
  fileDescription: string;
  /** What the command line risks (default: the value is visible to every user of the host). */
  risk?: string;
  helpGroup?: string;
}

/** The forms of a secret other than the command line, joined for a sentence. */
function saferForms(spec: SecretFlagSpec): string {
  const forms = [`--${fileFlagName(spec)} PATH`, spec.env, ...(spec.alternatives ?? [])];
  return forms.length === 2
    ? `${forms[0]} or ${forms[1]}`
    : `${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}`;
}

function described(spec: SecretFlagSpec, help: SecretFlagHelp): string {
  const risk = help.risk ?? 'on the command line it is visible to every user of the host (ps)';
  return `${help.description}; ${risk}, so prefer ${saferForms(spec)}`;
}

/** A secret flag (`--NAME`, with its variable as `env`) and its `--NAME-file` flag. */
export function secretFlags<N extends string>(
  spec: SecretFlagSpec & { name: N; multiple?: false },
  help: SecretFlagHelp,
): Record<N | `${N}-file`, Interfaces.OptionFlag<string | undefined>>;
export function secretFlags<N extends string>(
  spec: SecretFlagSpec & { name: N; multiple: true },
  help: SecretFlagHelp,
): Record<N, Interfaces.OptionFlag<string[] | undefined>> &
  Record<`${N}-file`, Interfaces.OptionFlag<string | undefined>>;
export function secretFlags(spec: SecretFlagSpec, help: SecretFlagHelp): Record<string, unknown> {
  const group = help.helpGroup === undefined ? {} : { helpGroup: help.helpGroup };
  const description = described(spec, help);
  const flag =
    spec.multiple === true
      ? Flags.string({ ...group, env: spec.env, description, multiple: true })
      : Flags.string({ ...group, env: spec.env, description });
  SPECS.set(flag, spec);
  const fileFlag = Flags.string({
    ...group,
    description: `${help.fileDescription} (takes the place of --${spec.name}; wins over ${spec.env})`,
    helpValue: 'PATH',
  });
  return { [spec.name]: flag, [fileFlagName(spec)]: fileFlag };
}

function unreadable(flag: string, path: string, cause: unknown): OaaError {
  const code = (cause as { code?: string }).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : (cause as Error).message;
  return new OaaError(`${flag}: cannot read ${path}: ${why}`, {
    code: 'FILE_UNREADABLE',
    cause,
    details: { flag, path },
    hints: [`${flag} names a file that holds the secret; check the path and that this user can read it`],
  });
}

/** The value(s) in a secret file: its text trimmed, or one value per line for a repeatable flag. */
async function readSecretFile(spec: SecretFlagSpec, path: string): Promise<string | string[]> {
  const flag = `--${fileFlagName(spec)}`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw unreadable(flag, path, cause);
  }
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0)
    throw new OaaError(`${flag}: ${path} is empty`, {
      code: 'USAGE',
      details: { flag, path },
      hints: [`write the value into ${path}, on one line`],
    });
  if (spec.multiple === true) return lines;
  if (lines.length > 1)
    throw new OaaError(
      `${flag}: ${path} has ${lines.length} lines; it must hold the value alone, on one line`,
      {
        code: 'USAGE',
        details: { flag, path },
      },
    );
  return lines[0]!;
}

/**
 * Resolves a secret flag from what oclif parsed: the command line (with a warning when the value
 * shows a secret), else the `-file` flag, else the environment (oclif puts a flag's `env` in `flags`
 * when the flag is not given; `raw` holds only what the command line gave). Both the flag and its
 * file is a usage error. Undefined when none of them is given.
 */
export async function takeSecretFlag(
  spec: SecretFlagSpec,
  parsed: { raw: Interfaces.ParserOutput['raw']; flags: Readonly<Record<string, unknown>> },
): Promise<TakenSecret | undefined> {
  const typed = parsed.raw.flatMap((token) =>
    token.type === 'flag' && token.flag === spec.name ? [token.input] : [],
  );
  const path = parsed.flags[fileFlagName(spec)];
  if (typed.length > 0 && typeof path === 'string')
    throw new OaaError(`give --${spec.name} or --${fileFlagName(spec)}, not both`, {
      code: 'USAGE',
      hints: [`pass the secret with --${fileFlagName(spec)} PATH or ${spec.env}`],
    });
  if (typed.length > 0) {
    const exposed = typed.map((value) => spec.exposes(value)).find((what) => what !== undefined);
    return {
      value: spec.multiple === true ? typed : typed.at(-1)!,
      source: 'flag',
      origin: `--${spec.name}`,
      ...(exposed === undefined
        ? {}
        : {
            warning: `warning: --${spec.name} puts ${exposed} on the command line, where every user of this host can read it (ps) and shell history keeps it; use ${saferForms(spec)} instead`,
          }),
    };
  }
  if (typeof path === 'string')
    return {
      value: await readSecretFile(spec, path),
      source: 'file',
      origin: `--${fileFlagName(spec)} ${path}`,
    };
  const fromEnv = parsed.flags[spec.name];
  if (fromEnv === undefined) return undefined;
  // oclif gives a repeatable flag's variable as one string.
  const values = (Array.isArray(fromEnv) ? fromEnv : [fromEnv]).map(String);
  return {
    value: spec.multiple === true ? values : values[0]!,
    source: 'env',
    origin: spec.env,
  };
}
