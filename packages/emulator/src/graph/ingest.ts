/** Dispatches a validated payload to the ingest of its template. */
import type { ApplicationPayload, HrisPayload, IdentityProviderPayload, Template } from '@oaakit/core';
import type { LastLoginLookup } from '../last-login/lookup.js';
import type { ProviderTypes } from '../store/providers.js';
import { ingestApplication } from './ingest-application.js';
import { ingestHris } from './ingest-hris.js';
import { ingestIdentityProvider } from './ingest-idp.js';
import type { GraphWriter } from './writer.js';

export interface IngestResult {
  /** Things the ingest had to skip; validation normally rules them out. */
  warnings: string[];
  /** Types to add to the provider's lists. */
  types: ProviderTypes;
}

/** Writes `payload` (already validated against `template`) through `w`; the payload is consumed. */
export function ingestPayload(
  w: GraphWriter,
  template: Template,
  payload: unknown,
  lastLogin?: LastLoginLookup,
): IngestResult {
  switch (template) {
    case 'application': {
      const r = ingestApplication(w, payload as ApplicationPayload, lastLogin);
      return {
        warnings: r.warnings,
        types: { application_types: r.applicationTypes, resource_types: r.resourceTypes },
      };
    }
    case 'identity_provider': {
      const r = ingestIdentityProvider(w, payload as IdentityProviderPayload);
      return { warnings: r.warnings, types: { idp_types: r.idpTypes } };
    }
    case 'hris': {
      const r = ingestHris(w, payload as HrisPayload);
      return { warnings: r.warnings, types: { hris_types: r.hrisTypes } };
    }
  }
}
