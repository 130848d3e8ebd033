/** Which template a payload is for: the `--template` flag, or a guess from its top-level keys. */
import { OaaError, TEMPLATES, isTemplate } from '@oaakit/core';
import type { Template } from '@oaakit/core';

/** Top-level keys that only one template has. */
const DISTINCT_KEYS: Readonly<Record<Template, readonly string[]>> = {
  application: ['applications', 'permissions', 'identity_to_permissions'],
  identity_provider: ['idp_type', 'idp_description', 'domains', 'users', 'apps'],
  hris: ['hris_type', 'system', 'employees'],
};

/** The template, and whether it was guessed. */
export interface TemplateChoice {
  template: Template;
  guessed: boolean;
}

function badTemplate(message: string, hints: string[]): OaaError {
  return new OaaError(message, { code: 'TEMPLATE_UNKNOWN', hints });
}

/**
 * The template named by the flag, or the one whose distinctive keys the payload has (the most of).
 * Throws `TEMPLATE_UNKNOWN` when the flag names no template or the keys do not decide.
 */
export function chooseTemplate(flag: string | undefined, payload: unknown): TemplateChoice {
  if (flag !== undefined) {
    if (!isTemplate(flag))
      throw badTemplate(`unknown template "${flag}"`, [`use one of: ${TEMPLATES.join(', ')}`]);
    return { template: flag, guessed: false };
  }
  const keys =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? Object.keys(payload) : [];
  const scored = TEMPLATES.map((template) => ({
    template,
    score: DISTINCT_KEYS[template].filter((k) => keys.includes(k)).length,
  }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (best === undefined || scored[1]?.score === best.score) {
    throw badTemplate("cannot tell the payload's template from its top-level keys", [
      `pass --template with one of: ${TEMPLATES.join(', ')}`,
    ]);
  }
  return { template: best.template, guessed: true };
}

/** `application (guessed from the payload's top-level keys; use --template to choose)`. */
export function describeTemplate(choice: TemplateChoice): string {
  return choice.guessed
    ? `${choice.template} (guessed from the payload's top-level keys; use --template to choose)`
    : choice.template;
}
