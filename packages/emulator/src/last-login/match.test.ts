/** The matching rule of last-login enrichment, as pure functions. */
import { describe, expect, it } from 'vitest';
import { appActivity, propertyValue, ssoLastLoginAt } from './match.js';

describe('appActivity', () => {
  it('keeps the latest login per value of the property, keyed without case, by instant not text', () => {
    const activity = appActivity(
      [
        { user: { login: 'Ann@X.com' }, timestamp: '2026-11-01T10:00:00+02:00' },
        { user: { login: 'ann@x.com' }, timestamp: '2026-11-01T09:30:00Z' },
        { user: { email: 'bob@x.com' }, timestamp: '2026-11-02T00:00:00Z' },
        { user: { login: '__proto__' }, timestamp: '2026-11-03T00:00:00Z' },
      ],
      'login',
    );
    expect(Object.entries(activity)).toEqual([
      ['ann@x.com', '2026-11-01T09:30:00Z'],
      ['__proto__', '2026-11-03T00:00:00Z'],
    ]);
  });

  it('reads the property by its exact key, else without case', () => {
    expect(propertyValue({ Email: 'a', email: 'b' }, 'email')).toBe('b');
    expect(propertyValue({ EMAIL: 'a' }, 'email')).toBe('a');
    expect(propertyValue({ login: 'a' }, 'email')).toBeUndefined();
  });
});

describe('ssoLastLoginAt', () => {
  const activity = { 'a@x.com': '2026-01-01T00:00:00Z', 'b@x.com': '2026-06-01T00:00:00Z' };
  it('answers the first identity that matches, without case', () => {
    expect(ssoLastLoginAt(activity, ['nobody', 'A@X.COM', 'b@x.com'])).toBe('2026-01-01T00:00:00Z');
    expect(ssoLastLoginAt(activity, ['nobody'])).toBeUndefined();
    expect(ssoLastLoginAt(activity, null)).toBeUndefined();
    expect(ssoLastLoginAt(undefined, ['a@x.com'])).toBeUndefined();
  });
});
