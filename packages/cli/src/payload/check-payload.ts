/** Reads, picks the template of, and validates a payload file: the first step of `validate` and `push`. */
import { ValidationError, validate } from '@oaakit/core';
import type { Violation } from '@oaakit/core';
import { plural } from '../output/format.js';
import { chooseTemplate } from './guess-template.js';
import type { TemplateChoice } from './guess-template.js';
import { readPayloadFile } from './read-payload-file.js';
import type { PayloadFile } from './read-payload-file.js';

/** A payload file that passed validation. */
export interface CheckedPayload extends PayloadFile, TemplateChoice {
  warnings: Violation[];
}

/**
 * Reads `path` and validates it. Throws a `ValidationError` listing every violation (with the
 * template and the warnings in its details) when the payload has errors.
 */
export async function checkPayloadFile(
  path: string,
  templateFlag: string | undefined,
): Promise<CheckedPayload> {
  const file = await readPayloadFile(path);
  const choice = chooseTemplate(templateFlag, file.payload);
  const { errors, warnings } = validate(choice.template, file.payload);
  if (errors.length > 0) {
    throw new ValidationError(
      `${path} is not a valid ${choice.template} payload: ${plural(errors.length, 'error')}`,
      errors,
      {
        details: { file: path, template: choice.template, templateGuessed: choice.guessed, warnings },
        hints: choice.guessed
          ? [
              'fix the fields listed above',
              `the template was guessed from the payload's top-level keys; pass --template if it is not ${choice.template}`,
            ]
          : ['fix the fields listed above'],
      },
    );
  }
  return { ...file, ...choice, warnings };
}
