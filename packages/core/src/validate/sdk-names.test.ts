/**
 * Naming, pattern and case rules of property names, tag keys and tag values, where the vendor SDK
 * 1.1.15 and the service specification differ. Each test passes what the SDK emits; where a rule
 * stays stricter, a second test shows the error (the decisions are in packages/core/README.md).
 */
import { describe, expect, it } from 'vitest';
import { expectOnly } from '../private-test-helpers/fixtures.js';
import { sdkApplication, sdkHris, sdkIdentityProvider } from '../private-test-helpers/sdk-payloads.js';
import { validate } from './index.js';

const app0 = (p: Record<string, any>) => p.applications[0];
const def0 = (p: Record<string, any>) => p.custom_property_definition.applications[0];
const errorsOf = (p: Record<string, any>) => validate('application', p).errors;

describe('property names, tag keys and tag values', () => {
  it('a property name in capitals (the SDK live test defines and sets NAME)', () => {
    const p = sdkApplication();
    def0(p).local_user_properties = { NAME: 'STRING', Version: 'STRING' };
    app0(p).local_users[0].custom_properties = { NAME: 'ALICE', Version: '2' };
    expect(errorsOf(p)).toEqual([]);
  });
  it('the pattern still applies to the lower-cased name', () => {
    const p = sdkApplication();
    def0(p).local_user_properties = { 'nick-name': 'STRING' };
    expectOnly(
      errorsOf(p),
      'custom_property_definition.applications[0].local_user_properties["nick-name"]',
      /\^\[a-z\]\[a-z_\]\*\$ once lower-cased/,
    );
  });
  it('a value finds its definition whatever the case of either', () => {
    const p = sdkApplication();
    def0(p).local_user_properties = { name: 'STRING', Version: 'NUMBER' };
    app0(p).local_users[0].custom_properties = { Name: 'alice', version: 2 };
    expect(errorsOf(p)).toEqual([]);
  });
  it('the declared type still holds for a value found without case', () => {
    const p = sdkApplication();
    def0(p).local_user_properties = { Version: 'NUMBER' };
    app0(p).local_users[0].custom_properties = { version: '2' };
    expectOnly(
      errorsOf(p),
      'applications[0].local_users[0].custom_properties.version',
      /must be a number: the property is declared as NUMBER/,
    );
  });
  it('identity-provider property names compare without case too', () => {
    const p = sdkIdentityProvider();
    p.custom_property_definition.user_properties = { NAME: 'STRING' };
    p.users[0].custom_properties = { name: 'alice' };
    expect(validate('identity_provider', p).errors).toEqual([]);
  });
  it('stricter than the SDK, which checks no identity-provider name: Cube-Number is an error', () => {
    const p = sdkIdentityProvider();
    p.custom_property_definition.user_properties = { 'Cube-Number': 'STRING' };
    expectOnly(
      validate('identity_provider', p).errors,
      'custom_property_definition.user_properties["Cube-Number"]',
      /once lower-cased/,
    );
  });
  it("hris: lower-cased definitions (CaseInsensitiveDict) and values in the caller's case", () => {
    const p = sdkHris();
    p.custom_property_definition.employee_properties = { nickname: 'STRING' };
    p.employees[0].custom_properties = { NickName: 'Al' };
    expect(validate('hris', p).errors).toEqual([]);
  });
  it('a property name without a trailing newline', () => {
    const p = sdkApplication();
    def0(p).application_properties = { ver: 'STRING' };
    app0(p).custom_properties = { ver: '1' };
    expect(errorsOf(p)).toEqual([]);
  });
  it("stricter than the SDK: a trailing newline (accepted by Python's $) is an error", () => {
    const p = sdkApplication();
    def0(p).application_properties = { 'ver\n': 'STRING' };
    expectOnly(
      errorsOf(p),
      'custom_property_definition.applications[0].application_properties["ver\\n"]',
      /once lower-cased/,
    );
  });
  it('an ASCII tag key', () => {
    const p = sdkApplication();
    app0(p).tags = [{ key: 'cost_center_7', value: '' }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: a tag key with a letter outside ASCII is an error', () => {
    const p = sdkApplication();
    app0(p).tags = [{ key: 'café', value: '' }];
    expectOnly(errorsOf(p), 'applications[0].tags[0].key', /letters, digits and underscores/);
  });
  it('a tag value of word characters, spaces and ,@.- (and a tab)', () => {
    const p = sdkApplication();
    app0(p).tags = [{ key: 'k', value: 'a b@c,d.e_f-g\tTab' }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: a tag value with a letter outside ASCII is an error', () => {
    const p = sdkApplication();
    app0(p).tags = [{ key: 'k', value: 'naïve value' }];
    expectOnly(errorsOf(p), 'applications[0].tags[0].value', /letters, digits, spaces and ,@.-/);
  });
});
