import { describe, expect, it } from 'vitest';
import { clientOptionsFromEnv } from './env.js';

describe('clientOptionsFromEnv', () => {
  it('reads OAA_URL and OAA_API_KEY', () => {
    expect(clientOptionsFromEnv({ OAA_URL: 'http://127.0.0.1:1', OAA_API_KEY: 'k' })).toEqual({
      url: 'http://127.0.0.1:1',
      apiKey: 'k',
    });
  });

  it('names what is missing, without values', () => {
    expect(() => clientOptionsFromEnv({ OAA_URL: 'http://x' })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: 'missing environment variable OAA_API_KEY',
      }),
    );
  });
});
