import { describe, expect, it } from 'vitest';
import { ApplicationPayloadBuilder } from '../builders/application-payload.js';
import { validate } from '../validate/index.js';
import { copyEntity } from './copy-entity.js';

describe('copyEntity', () => {
  it('copies own fields into a new plain object', () => {
    const input = { name: 'repo', resource_type: 'repo', tags: [{ key: 'a' }] };
    const copy = copyEntity(input);
    expect(copy).not.toBe(input);
    expect(copy).toStrictEqual(input);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.tags).toBe(input.tags);
  });

  it('keeps an own __proto__ key a plain field, as spread does, instead of setting the prototype', () => {
    const input = JSON.parse(
      '{"name":"repo","resource_type":"repo","__proto__":{"polluted":true}}',
    ) as object;
    const copy = copyEntity(input);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect('polluted' in copy).toBe(false);
    expect(Object.keys(copy)).toEqual(['name', 'resource_type', '__proto__']);
  });

  it('is what resource builders store: an own __proto__ key reaches validation as an unknown field', () => {
    const b = new ApplicationPayloadBuilder();
    const app = b.addApplication({ name: 'app', application_type: 'x' });
    const res = app.addResource(JSON.parse('{"name":"r","resource_type":"repo","__proto__":{"x":1}}'));
    res.addSubResource(JSON.parse('{"name":"s","resource_type":"branch","__proto__":{"x":1}}'));
    const payload = b.build();
    const resource = payload.applications[0]!.resources![0]!;
    expect(Object.getPrototypeOf(resource)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(resource.sub_resources![0])).toBe(Object.prototype);
    const fields = validate('application', payload).errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'applications[0].resources[0].__proto__',
        'applications[0].resources[0].sub_resources[0].__proto__',
      ]),
    );
  });
});
