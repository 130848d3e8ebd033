/** The provider a push goes to: found by name or id, created only when asked. */
import type { Client, Provider } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import type { Template } from '@oaakit/core';
import { findProvider } from './lookup.js';

/** Options of {@link resolveProviderForPush}. */
export interface ProviderForPushOptions {
  client: Client;
  /** Name or id from the command line. */
  ref: string;
  /** The payload's template; the provider must have it. */
  template: Template;
  /** Create the provider (named `ref`) when it does not exist. */
  create: boolean;
  signal?: AbortSignal;
}

/**
 * The provider to push to. Without `create`, a missing provider is `PROVIDER_NOT_FOUND` with a hint
 * to pass `--create-provider`; a provider of another template is `PROVIDER_TEMPLATE_MISMATCH`.
 */
export async function resolveProviderForPush(
  options: ProviderForPushOptions,
): Promise<{ provider: Provider; created: boolean }> {
  const { client, ref, template, signal } = options;
  if (options.create) {
    const { provider, created } = await client.providers.findOrCreate({ name: ref, template }, { signal });
    return { provider, created };
  }
  let provider: Provider;
  try {
    provider = await findProvider(client, ref, signal);
  } catch (error) {
    if (error instanceof OaaError && error.code === 'PROVIDER_NOT_FOUND') {
      throw new OaaError(`provider "${ref}" does not exist`, {
        code: 'PROVIDER_NOT_FOUND',
        details: { provider: ref },
        hints: [
          `pass --create-provider to create it with the ${template} template`,
          '`oaa providers list` shows the existing providers',
        ],
      });
    }
    throw error;
  }
  if (provider.custom_template !== template) {
    throw new OaaError(
      `provider "${provider.name}" has the ${provider.custom_template} template, but the payload is ${template}`,
      {
        code: 'PROVIDER_TEMPLATE_MISMATCH',
        details: { providerId: provider.id, template: provider.custom_template, wanted: template },
        hints: ["push to a provider of the payload's template, or pass --template if the guess was wrong"],
      },
    );
  }
  return { provider, created: false };
}
