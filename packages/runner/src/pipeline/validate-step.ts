/** Validate: errors stop the run listing every violation; warnings go to the log and the result. */
import { describeInvalidPayload, ValidationError } from '@oaakit/core';
import type { Template, Violation } from '@oaakit/core';
import type { Logger } from 'pino';

/** Warnings spelled out in the log; all of them are in the run result. */
const MESSAGE_LINES = 50;

/** The run's `ValidationError` (code `VALIDATION_FAILED`) listing every error. */
export function validationFailure(
  connectorId: string,
  template: Template,
  errors: Violation[],
): ValidationError {
  return new ValidationError(
    `connector "${connectorId}": ${describeInvalidPayload(template, errors)}`,
    errors,
    {
      details: { connectorId },
      hints: ['nothing was pushed and the state is unchanged', 'fix the connector or its source data'],
    },
  );
}

/** Logs validation warnings: the first ones spelled out, then how many more there are. */
export function logWarnings(logger: Logger, warnings: readonly Violation[]): void {
  for (const warning of warnings.slice(0, MESSAGE_LINES))
    logger.warn({ field: warning.field }, warning.description);
  if (warnings.length > MESSAGE_LINES)
    logger.warn({ count: warnings.length }, 'more validation warnings in the run result');
}
