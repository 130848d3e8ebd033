/**
 * What to do when the service refuses the API key (401) or its role (403): hints that name where the
 * key came from, so the user knows which one to replace.
 */
import type { OaaError } from '@oaakit/core';
import type { CredentialSource } from '@oaakit/runner';

/**
 * Where the key of the command came from, as the target resolution reported it (`file`: the flag's
 * value was read from `--api-key-file`).
 */
export type KeySource = CredentialSource | 'embedded' | 'file';

const WHERE: Readonly<Record<KeySource, string>> = {
  flag: 'the key given with --api-key',
  file: 'the key in the file of --api-key-file',
  env: 'the key in OAA_API_KEY',
  config: "the key of the config file's target.credential",
  keychain: 'the key that `oaa auth login` saved in the OS keychain',
  embedded: "the embedded emulator's own key",
};

/** 401 or 403 when the error is (or wraps) the service refusing the key; undefined otherwise. */
function refusedStatus(error: OaaError<string>): 401 | 403 | undefined {
  const own = (error as { status?: unknown }).status;
  const status =
    typeof own === 'number'
      ? own
      : error.code === 'CREDENTIALS_REFUSED'
        ? error.details['status']
        : undefined;
  return status === 401 || status === 403 ? status : undefined;
}

/**
 * The hints of `error`, led by what to do about a refused key. The service's own advice on a refused
 * key (send a bearer header) is for those who write API calls, so it gives way to these hints.
 */
export function hintsWithCredentials(error: OaaError<string>, source: KeySource | undefined): string[] {
  const status = refusedStatus(error);
  if (status === undefined) return error.hints;
  const fromService = typeof (error as { status?: unknown }).status === 'number';
  return [...credentialHints(status, source), ...(fromService ? [] : error.hints)];
}

function credentialHints(status: 401 | 403, source: KeySource | undefined): string[] {
  const key = source === undefined ? 'the API key' : WHERE[source];
  if (status === 403) {
    return [
      `${key} is valid, but its role does not allow this call: use a key with a role that does (the service's message names the roles it allows)`,
      'pass it with --api-key-file or OAA_API_KEY, or save it with `oaa auth login`',
    ];
  }
  const fix =
    source === 'keychain'
      ? 'run `oaa auth login` again with a current key'
      : source === 'env'
        ? 'set OAA_API_KEY to a current key, or unset it to use the key of `oaa auth login`'
        : source === 'config'
          ? 'point target.credential at a current key'
          : source === 'file'
            ? 'write a current key into that file'
            : 'pass a current key with --api-key-file or OAA_API_KEY, or save one with `oaa auth login`';
  return [`${key} was refused: it is wrong, expired or revoked; ${fix}`];
}
