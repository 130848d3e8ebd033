/** Fixture loading for the validation tests (test-only; not exported from the package). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** A fresh deep copy of a fixture payload from `packages/core/fixtures`. */
export function fixture<T = Record<string, any>>(name: 'application' | 'identity-provider' | 'hris'): T {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8')) as T;
}
