/**
 * `validate(template, payload)`: every error the service would reject the payload for, and every
 * warning it would answer with, as `{ field, description }` with JSON paths.
 */
import type { Violation } from '../errors.js';
import type { ApplicationPayload } from '../schemas/application.js';
import { identityToPermissionsSchema, localUserSchema } from '../schemas/application.js';
import { hrisEmployeeSchema, type HrisPayload } from '../schemas/hris.js';
import { idpUserSchema, type IdentityProviderPayload } from '../schemas/identity-provider.js';
import { payloadSchemas, TEMPLATES, type Template } from '../schemas/templates.js';
import { checkApplicationPayload } from './application.js';
import { isStreamed } from './collections.js';
import { compile } from './compile.js';
import { CheckContext } from './context.js';
import { checkHrisPayload } from './hris.js';
import { checkIdentityProviderPayload } from './identity-provider.js';
import type { SemanticOptions } from './options.js';
import type * as z from 'zod';

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

/** Per template, the item schemas of the collections whose shape the semantic pass checks. */
const DEFERRED: Readonly<Record<Template, readonly z.ZodType[]>> = {
  application: [localUserSchema, identityToPermissionsSchema],
  identity_provider: [idpUserSchema],
  hris: [hrisEmployeeSchema],
};

/**
 * The structural check of a payload, leaving the collections that may be streamed (an
 * application's local users and identity_to_permissions entries, an identity provider's users, the
 * employees of an hris) to the semantic pass, so a streamed collection is read once.
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
  compile(payloadSchemas[template], { partial: incremental, deferred: DEFERRED[template] })(payload, ctx);
  // References are only meaningful once the shape is right; the deferred shapes are still listed.
  if (ctx.errors.length > 0) {
    checkDeferredShapes(template, payload, ctx, incremental);
    return undefined;
  }
  return payload;
}

/**
 * The shape checks of the collections the structural walk left to the semantic pass, for when the
 * rest of the payload is malformed and references cannot be resolved: every violation is still
 * listed. Collections only the serializer can read (async iterables) are left unread.
 */
function checkDeferredShapes(template: Template, p: unknown, ctx: CheckContext, incremental: boolean): void {
  if (typeof p !== 'object' || p === null) return;
  const walk = (list: unknown, schema: z.ZodType, ...at: (string | number)[]) => {
    if (!Array.isArray(list) && !isStreamed(list)) return;
    const check = compile(schema, { partial: incremental });
    ctx.path.push(...at);
    let i = 0;
    for (const item of list as Iterable<unknown>) {
      ctx.path.push(i++);
      check(item, ctx);
      ctx.path.pop();
    }
    ctx.path.length -= at.length;
  };
  const fields = p as Record<string, unknown>;
  switch (template) {
    case 'application':
      if (Array.isArray(fields.applications)) {
        fields.applications.forEach((app: unknown, i) => {
          if (typeof app === 'object' && app !== null)
            walk(
              (app as Record<string, unknown>).local_users,
              localUserSchema,
              'applications',
              i,
              'local_users',
            );
        });
      }
      walk(fields.identity_to_permissions, identityToPermissionsSchema, 'identity_to_permissions');
      break;
    case 'identity_provider':
      walk(fields.users, idpUserSchema, 'users');
      break;
    case 'hris':
      walk(fields.employees, hrisEmployeeSchema, 'employees');
      break;
  }
}
