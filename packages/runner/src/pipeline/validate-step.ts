/** Validate: errors stop the run listing every violation; warnings go to the log and the result. */
import { describeInvalidPayload, ValidationError, validate } from '@oaakit/core';
import type { JsonObject, Template, Violation } from '@oaakit/core';
import type { Logger } from 'pino';

/** Warnings spelled out in the log; all of them are in the run result. */
const MESSAGE_LINES = 50;

/** Validates the payload; throws `ValidationError` (code `VALIDATION_FAILED`) with every error. */
export function validatePayload(options: {
  template: Template;
  payload: JsonObject;
  connectorId: string;
  logger: Logger;
}): Violation[] {
  const { errors, warnings } = validate(options.template, options.payload);
  if (errors.length > 0) {
    throw new ValidationError(
      `connector "${options.connectorId}": ${describeInvalidPayload(options.template, errors)}`,
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
