/**
 * `PATCH /api/v1/providers/custom/{id}` with `{ provisioning }`: the vendor SDK's
 * `update_provisioning_status`, which makes an `hris` provider the system of record for
 * lifecycle-management policies (spec, custom provider field `provisioning`).
 */
import { providerUpdateSchema, type Template } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { badField } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { recordEvent } from '../store/events.js';
import { setProvisioning, type ProviderRecord } from '../store/providers.js';

/**
 * Why a `provisioning` value is refused for a provider of `template`, or undefined when it is allowed
 * (unset, or an `hris` provider). Only an HRIS source says who works here, so only it can be the
 * system of record that drives joiner and leaver policies; the flag means nothing elsewhere.
 */
export function provisioningProblem(
  template: Template,
  provisioning: boolean | null | undefined,
): string | undefined {
  if (provisioning == null || template === 'hris') return undefined;
  return `only hris providers can be the system of record; this provider has the ${template} template`;
}

/**
 * Applies a PATCH body to `provider` and answers `{ value: provider }`. A change of the flag is
 * recorded as a `PROVIDER_CONFIG_CHANGED` event; setting the value it already has records nothing,
 * so repeating a call (a client retry) leaves one event.
 */
export function updateProvider(
  ctx: EmulatorContext,
  provider: ProviderRecord,
  rawBody: unknown,
): { value: ProviderRecord } {
  const body = parseBody(providerUpdateSchema, rawBody);
  const problem = provisioningProblem(provider.custom_template, body.provisioning);
  if (problem) throw badField('provisioning', problem);
  // An unset flag (null, as created) means "not the system of record".
  const changed = (provider.provisioning ?? false) !== body.provisioning;
  const now = ctx.clock.iso();
  const updated = ctx.db.transaction(() => {
    const record = setProvisioning(ctx.db, provider, body.provisioning);
    if (changed) {
      recordEvent(ctx.db, {
        timestamp: now,
        category: 'INTEGRATIONS',
        severity: 'INFO',
        name: 'Provider configuration changed',
        message: body.provisioning
          ? `Provider ${provider.name} is now the system of record (provisioning enabled)`
          : `Provider ${provider.name} is no longer the system of record (provisioning disabled)`,
        provider_id: provider.id,
        entity: 'PROVIDER',
        entity_id: provider.id,
        entity_name: provider.name,
        event_type: 'PROVIDER_CONFIG_CHANGED',
        error: null,
      });
    }
    return record;
  })();
  return { value: updated };
}
