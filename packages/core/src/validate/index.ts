/**
 * `validate(template, payload)`: every error the service would reject the payload for, and every
 * warning it would answer with, as `{ field, description }` with JSON paths.
 */
import type { Violation } from '../errors.js';
import type { ApplicationPayload } from '../schemas/application.js';
import { identityToPermissionsSchema, localUserSchema } from '../schemas/application.js';
import type { HrisPayload } from '../schemas/hris.js';
import type { IdentityProviderPayload } from '../schemas/identity-provider.js';
import { payloadSchemas, TEMPLATES, type Template } from '../schemas/templates.js';
import { checkApplicationPayload, checkDeferredShapes } from './application.js';
import { compile } from './compile.js';
import { CheckContext } from './context.js';
import { checkHrisPayload } from './hris.js';
import { checkIdentityProviderPayload } from './identity-provider.js';
import type { SemanticOptions } from './options.js';

/** The outcome of `validate`: errors make the service answer 400; warnings come back with a 200. */
export interface ValidationResult {
  errors: Violation[];
  warnings: Violation[];
}

/**
 * Validates a payload of `template` locally, the way the service does on push.
 *
 * @example
 * const { errors, warnings } = validate('application', payload);
 * if (errors.length) throw new ValidationError('payload is invalid', errors);
 */
export function validate(
  template: Template,
  payload: unknown,
  options: SemanticOptions = {},
): ValidationResult {
  const ctx = new CheckContext();
  const shaped = checkShape(template, payload, ctx);
  if (shaped) {
    switch (template) {
      case 'application':
        checkApplicationPayload(shaped as ApplicationPayload, ctx, options);
        break;
      case 'identity_provider':
        checkIdentityProviderPayload(shaped as IdentityProviderPayload, ctx);
        break;
      case 'hris':
        checkHrisPayload(shaped as HrisPayload, ctx);
        break;
    }
  }
  return { errors: ctx.errors, warnings: ctx.warnings };
}

const DEFERRED = [localUserSchema, identityToPermissionsSchema];

/**
 * The structural check of a payload, leaving an application's local users and
 * identity_to_permissions entries to the semantic pass, so a streamed collection is read once.
 * Returns the payload to check semantically, or undefined when the shape is wrong (everything wrong
 * with the shape is then reported, deferred collections included).
 */
export function checkShape(template: Template, payload: unknown, ctx: CheckContext): unknown {
  if (!(TEMPLATES as readonly string[]).includes(template)) {
    ctx.error(`unknown template ${JSON.stringify(template)}; allowed: ${TEMPLATES.join(', ')}`);
    return undefined;
  }
  if (
    template === 'hris' &&
    payload !== null &&
    typeof payload === 'object' &&
    'incremental_change' in payload
  ) {
    ctx.error(
      'incremental updates are not available for the hris template: push the full payload',
      'incremental_change',
    );
    const { incremental_change: _ignored, ...rest } = payload as Record<string, unknown>;
    payload = rest;
  }
  const incremental =
    payload !== null &&
    typeof payload === 'object' &&
    (payload as { incremental_change?: unknown }).incremental_change === true;
  const deferred = template === 'application' ? DEFERRED : [];
  compile(payloadSchemas[template], { partial: incremental, deferred })(payload, ctx);
  // References are only meaningful once the shape is right; the deferred shapes are still listed.
  if (ctx.errors.length > 0) {
    if (template === 'application') checkDeferredShapes(payload, ctx, incremental);
    return undefined;
  }
  return payload;
}
