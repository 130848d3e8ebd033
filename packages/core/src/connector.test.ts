import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CONNECTOR_API_VERSION, defineConnector } from './connector.js';
import { OaaError } from './errors.js';

const base = {
  id: 'wiki',
  version: '1.2.3',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application' as const,
  configSchema: z.object({}),
  extract: () => ({ applications: [{ name: 'x', application_type: 'x' }] }),
};

describe('defineConnector', () => {
  it('returns a frozen definition', () => {
    const c = defineConnector(base);
    expect(c.id).toBe('wiki');
    expect(Object.isFrozen(c)).toBe(true);
  });
  it('names every problem of an invalid definition', () => {
    let error: unknown;
    try {
      defineConnector({ ...base, id: 'Wiki!', version: 'one', apiVersion: 99 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OaaError);
    expect((error as OaaError).code).toBe('CONNECTOR_INVALID');
    expect((error as OaaError).message).toMatch(
      /id "Wiki!" must be lower-case.*version "one" must be semver.*apiVersion 99 is not supported; this oaakit supports 1/,
    );
  });
});
