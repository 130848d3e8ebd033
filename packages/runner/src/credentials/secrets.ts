/** Resolves a connector's secret references into the values its `ctx.secrets` carries. */
import { OaaError } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { REFERENCE_FORMS, formatSecretReference, parseSecretReference } from '../config/references.js';
import type { SecretReference } from '../config/references.js';
import { readKeychain } from './keychain.js';

/** Where references are read from; the real environment and keychain by default. */
export interface SecretSources {
  env?: Record<string, string | undefined>;
  keychain?: (service: string, account: string) => Promise<string | undefined>;
}

/**
 * The value a reference points at, or undefined when the variable is unset or empty or the
 * keychain has no such entry. Throws `KEYCHAIN_UNAVAILABLE` when the keychain cannot be used.
 */
export async function resolveSecretReference(
  ref: string | SecretReference,
  sources: SecretSources = {},
): Promise<string | undefined> {
  const parsed = typeof ref === 'string' ? parseSecretReference(ref) : ref;
  if (parsed === undefined) {
    throw new OaaError(`not a secret reference; use ${REFERENCE_FORMS}`, {
      code: RUNNER_ERROR_CODES.CONFIG_INVALID,
    });
  }
  if (parsed.kind === 'env') {
    const value = (sources.env ?? process.env)[parsed.variable];
    return value === undefined || value === '' ? undefined : value;
  }
  return (sources.keychain ?? readKeychain)(parsed.service, parsed.account);
}

function howToSet(ref: SecretReference): string {
  return ref.kind === 'env'
    ? `set the environment variable ${ref.variable} (e.g. export ${ref.variable}=...)`
    : `store it in the OS keychain under service "${ref.service}", account "${ref.account}", or use an env: reference`;
}

/** Options of {@link resolveSecrets}. */
export interface ResolveSecretsOptions extends SecretSources {
  connector: Connector;
  /** The config entry's id, for messages. */
  connectorId: string;
  /** Secret name -> reference, from the config file. */
  references: Readonly<Record<string, string>> | undefined;
  /** Where the references sit in the config file, for messages; default `secrets`. */
  keyPath?: string;
}

/**
 * The values of every secret the connector declares. Throws `SECRET_MISSING` naming the secret and
 * how to set it when one has no reference or its reference resolves to nothing, and
 * `CONFIG_INVALID` for a reference to a secret the connector does not declare.
 */
export async function resolveSecrets(options: ResolveSecretsOptions): Promise<Record<string, string>> {
  const { connector, connectorId } = options;
  const keyPath = options.keyPath ?? 'secrets';
  const references = options.references ?? {};
  const declared = connector.secrets ?? [];
  const names = new Set(declared.map((s) => s.name));
  const unknown = Object.keys(references).filter((name) => !names.has(name));
  if (unknown.length > 0) {
    const allowed = declared.length === 0 ? 'it declares none' : `it declares: ${[...names].join(', ')}`;
    throw new OaaError(
      `${keyPath}.${unknown[0]}: connector "${connectorId}" has no secret named "${unknown[0]}"; ${allowed}`,
      {
        code: RUNNER_ERROR_CODES.CONFIG_INVALID,
        details: { connectorId, unknown, declared: [...names] },
      },
    );
  }
  const values: Record<string, string> = {};
  for (const secret of declared) {
    const text = references[secret.name];
    if (text === undefined) {
      throw new OaaError(
        `connector "${connectorId}" needs the secret "${secret.name}" (${secret.description}), but ${keyPath}.${secret.name} is not set`,
        {
          code: RUNNER_ERROR_CODES.SECRET_MISSING,
          details: { connectorId, missing: secret.name },
          hints: [
            `add ${keyPath}.${secret.name}: env:VARIABLE (or keychain:SERVICE/ACCOUNT) to the config file and set that variable`,
          ],
        },
      );
    }
    const ref = parseSecretReference(text);
    if (ref === undefined)
      throw new OaaError(`${keyPath}.${secret.name}: not a secret reference; use ${REFERENCE_FORMS}`, {
        code: RUNNER_ERROR_CODES.CONFIG_INVALID,
      });
    const value = await resolveSecretReference(ref, options);
    if (value === undefined) {
      throw new OaaError(
        `connector "${connectorId}" needs the secret "${secret.name}" (${secret.description}): ${formatSecretReference(ref)} is not set`,
        {
          code: RUNNER_ERROR_CODES.SECRET_MISSING,
          details: { connectorId, missing: secret.name, reference: formatSecretReference(ref) },
          hints: [howToSet(ref)],
        },
      );
    }
    values[secret.name] = value;
  }
  return values;
}
