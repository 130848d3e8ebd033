/**
 * Formats and limits the vendor SDK 1.1.15 does not check: timestamps, the type of list elements,
 * and the names and flags it leaves out of what it sends. Each test pins the decision recorded in
 * packages/core/README.md.
 */
import { describe, expect, it } from 'vitest';
import { isRfc3339 } from '../schemas/primitives.js';
import { expectOnly } from '../private-test-helpers/fixtures.js';
import { sdkApplication, sdkHris } from '../private-test-helpers/sdk-payloads.js';
import { validate } from './index.js';

const app0 = (p: Record<string, any>) => p.applications[0];
const errorsOf = (p: Record<string, any>) => validate('application', p).errors;

describe('formats and limits', () => {
  it('an empty string is not a timestamp, even right after valid ones were checked', () => {
    expect(isRfc3339('2024-01-01T00:00:00Z')).toBe(true);
    expect(isRfc3339('')).toBe(false);
    const p = sdkApplication();
    app0(p).local_users[0].created_at = '2024-01-01T00:00:00Z';
    app0(p).local_users[0].last_login_at = '';
    expectOnly(errorsOf(p), 'applications[0].local_users[0].last_login_at', /RFC 3339 timestamp/);
  });
  it('a date without a time is not a timestamp (hris start_date too)', () => {
    const p = sdkHris();
    p.employees[0].start_date = '2024-01-01';
    expectOnly(validate('hris', p).errors, 'employees[0].start_date', /RFC 3339 timestamp/);
  });
  it("a number among a user's identities is an error", () => {
    const p = sdkApplication();
    app0(p).local_users[0].identities = [12345];
    expectOnly(errorsOf(p), 'applications[0].local_users[0].identities[0]', /must be a string, got number/);
  });
  it('a property definition without application_type is that of the applications of type ""', () => {
    const p = sdkApplication();
    app0(p).application_type = '';
    p.custom_property_definition.applications = [{ application_properties: { version: 'STRING' } }];
    app0(p).custom_properties = { version: '1.0' };
    expect(errorsOf(p)).toEqual([]);
  });
  it('a local group without a name is an error', () => {
    const p = sdkApplication();
    app0(p).local_groups = [{ id: 'g-1' }];
    expectOnly(errorsOf(p), 'applications[0].local_groups[0].name', /is required/);
  });
  it('an employee without is_active is an error', () => {
    const p = sdkHris();
    delete p.employees[0].is_active;
    expectOnly(validate('hris', p).errors, 'employees[0].is_active', /is required/);
  });
});
