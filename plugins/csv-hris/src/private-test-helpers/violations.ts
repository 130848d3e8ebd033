/** The one `ValidationError` a run of the connector must end with, for tests of bad input. */
import { ValidationError, type Violation } from '@oaakit/core';
import { expect } from 'vitest';
import type { CsvHrisConfigInput } from '../config.js';
import { extractEmployees } from '../extract.js';
import { testContext } from './context.js';

/** The violations of the `ValidationError` that extracting with `config` ends with. */
export async function violationsOf(config: CsvHrisConfigInput): Promise<Violation[]> {
  const error = await extractEmployees(testContext(config)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  const v = error as ValidationError;
  expect(v.code).toBe('VALIDATION_FAILED');
  // The message itself lists them too, for a user who sees only the message.
  for (const { field } of v.violations.slice(0, 10)) expect(v.message).toContain(field);
  return v.violations;
}
