/**
 * Secret references: how a config file names a secret without holding it. `env:VAR` reads an
 * environment variable; `keychain:SERVICE/ACCOUNT` reads the OS keychain.
 */
import * as z from 'zod';

/** A parsed secret reference. */
export type SecretReference =
  { kind: 'env'; variable: string } | { kind: 'keychain'; service: string; account: string };

const ENV = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;
const KEYCHAIN = /^keychain:([^/]+)\/(.+)$/;

/** What a reference must look like, for messages. */
export const REFERENCE_FORMS = 'env:VARIABLE or keychain:SERVICE/ACCOUNT';

/** Parses a reference; undefined when `text` is not one (e.g. a plain secret value). */
export function parseSecretReference(text: string): SecretReference | undefined {
  const env = ENV.exec(text);
  if (env) return { kind: 'env', variable: env[1]! };
  const keychain = KEYCHAIN.exec(text);
  if (keychain) return { kind: 'keychain', service: keychain[1]!, account: keychain[2]! };
  return undefined;
}

/** The reference written back as text, for messages (never a value). */
export function formatSecretReference(ref: SecretReference): string {
  return ref.kind === 'env' ? `env:${ref.variable}` : `keychain:${ref.service}/${ref.account}`;
}

/** A config value that must be a secret reference; a plain value is refused without echoing it. */
export const secretReferenceSchema = z
  .string()
  .regex(/^(env:[A-Za-z_][A-Za-z0-9_]*|keychain:[^/]+\/.+)$/, {
    error: `must be a reference (${REFERENCE_FORMS}); plain secret values are not allowed in config files: put the value in an environment variable or the OS keychain and reference it`,
  })
  .meta({ description: `A secret reference: ${REFERENCE_FORMS}` });
