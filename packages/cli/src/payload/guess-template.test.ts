import { describe, expect, it } from 'vitest';
import { chooseTemplate } from './guess-template.js';

describe('chooseTemplate', () => {
  it('guesses from the keys only one template has', () => {
    expect(chooseTemplate(undefined, { applications: [], permissions: [] })).toEqual({
      template: 'application',
      guessed: true,
    });
    expect(chooseTemplate(undefined, { name: 'x', idp_type: 'okta', users: [] })).toEqual({
      template: 'identity_provider',
      guessed: true,
    });
    expect(chooseTemplate(undefined, { name: 'x', hris_type: 'y', employees: [], groups: [] })).toEqual({
      template: 'hris',
      guessed: true,
    });
  });

  it('prefers the flag, and refuses an unknown name or undecidable keys', () => {
    expect(chooseTemplate('hris', { applications: [] })).toEqual({ template: 'hris', guessed: false });
    expect(() => chooseTemplate('app', {})).toThrow('unknown template "app"');
    expect(() => chooseTemplate(undefined, { name: 'x', groups: [] })).toThrow(
      "cannot tell the payload's template",
    );
    expect(() => chooseTemplate(undefined, [1, 2])).toThrow("cannot tell the payload's template");
  });
});
