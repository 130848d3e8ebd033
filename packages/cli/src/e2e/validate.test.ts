/** `oaa validate`, run as a user would: exit codes, the violation lines, the `--json` shapes. */
import { describe, expect, it } from 'vitest';
import type { Violation } from '@oaakit/core';
import type { ErrorJson } from '../output/render-error.js';
import { fixture, json, oaa } from '../private-test-helpers/run-oaa.js';

interface ValidateJson {
  file: string;
  template: string;
  templateGuessed: boolean;
  valid: boolean;
  errors: Violation[];
  warnings: Violation[];
}

describe('oaa validate', () => {
  it('accepts a valid payload, says the template was guessed, and exits 0', async () => {
    const res = await oaa(['validate', fixture('payloads/app-valid.json')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      "application (guessed from the payload's top-level keys; use --template to choose)",
    );
    expect(res.stdout).toContain('Valid: no errors, 0 warnings.');
  });

  it('reads gzip payloads and takes the template from --template', async () => {
    const res = await oaa([
      'validate',
      fixture('payloads/hris-valid.json.gz'),
      '--template',
      'hris',
      '--json',
    ]);
    expect(res.code).toBe(0);
    expect(json<ValidateJson>(res)).toMatchObject({
      template: 'hris',
      templateGuessed: false,
      valid: true,
      errors: [],
    });
  });

  it('prints every violation as "field: description" and exits 2', async () => {
    const res = await oaa(['validate', fixture('payloads/app-invalid.json')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Error: ');
    expect(res.stderr).toContain(
      '  applications[0].local_users[0].groups[0]: local group "no-such-group" does not exist in application "Team Wiki"',
    );
    expect(res.stderr).toMatch(/^Hint: /m);
    expect(res.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('gives the violations as JSON under error with --json', async () => {
    const res = await oaa(['validate', fixture('payloads/app-invalid.json'), '--json']);
    expect(res.code).toBe(2);
    const { error } = json<{ error: ErrorJson }>(res);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      exitCode: 2,
      details: { template: 'application', templateGuessed: true },
    });
    expect(error.violations).toEqual([
      {
        field: 'applications[0].local_users[0].groups[0]',
        description: 'local group "no-such-group" does not exist in application "Team Wiki"',
      },
    ]);
  });

  it('asks for --template when the keys do not tell', async () => {
    const res = await oaa(['validate', fixture('payloads/unknown-template.json')]);
    expect(res.code).toBe(64);
    expect(res.stderr).toContain("Error: cannot tell the payload's template from its top-level keys");
    expect(res.stderr).toContain('Hint: pass --template with one of: application, identity_provider, hris');
  });

  it('validates against the template given, whatever the keys say', async () => {
    const res = await oaa(['validate', fixture('payloads/app-valid.json'), '--template', 'hris']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^ {2}applications: /m);
  });

  it('names a missing file and treats a non-JSON file as invalid', async () => {
    const missing = await oaa(['validate', fixture('payloads/nope.json')]);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('nope.json: no such file');
    const notJson = await oaa(['validate', fixture('icons/not-an-image.txt')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('(payload): not JSON');
  });

  it('rejects an unknown flag as a usage error pointing at the help', async () => {
    const res = await oaa(['validate', fixture('payloads/app-valid.json'), '--bogus']);
    expect(res.code).toBe(64);
    expect(res.stderr).toContain('Hint: see `oaa validate --help`');
  });
});
