/** Validate: errors stop the run listing every violation; warnings go to the log and the result. */
import { ValidationError, validate } from '@oaakit/core';
import type { JsonObject, Template, Violation } from '@oaakit/core';
import type { Logger } from 'pino';

/** Violations spelled out in an error message; all of them are in `violations`. */
const MESSAGE_LINES = 50;

function listed(violations: readonly Violation[]): string {
  const lines = violations.slice(0, MESSAGE_LINES).map((v) => `  ${v.field}: ${v.description}`);
  if (violations.length > MESSAGE_LINES)
    lines.push(`  ... and ${violations.length - MESSAGE_LINES} more (all are in violations)`);
  return lines.join('\n');
}

/** Validates the payload; throws `ValidationError` (code `VALIDATION_FAILED`) with every error. */
export function validatePayload(options: {
  template: Template;
  payload: JsonObject;
  connectorId: string;
  logger: Logger;
}): Violation[] {
  const { errors, warnings } = validate(options.template, options.payload);
  if (errors.length > 0) {
    const noun = errors.length === 1 ? 'error' : 'errors';
    throw new ValidationError(
      `connector "${options.connectorId}": the ${options.template} payload has ${errors.length} ${noun}:\n${listed(errors)}`,
      errors,
      {
        details: { connectorId: options.connectorId },
        hints: ['nothing was pushed and the state is unchanged', 'fix the connector or its source data'],
      },
    );
  }
  for (const warning of warnings.slice(0, MESSAGE_LINES))
    options.logger.warn({ field: warning.field }, warning.description);
  if (warnings.length > MESSAGE_LINES)
    options.logger.warn({ count: warnings.length }, 'more validation warnings in the run result');
  return warnings;
}
