/** Fixture loading for the validation tests (test-only; not exported from the package). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Violation } from '../errors.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** A fresh deep copy of a fixture payload from `packages/core/fixtures`. */
export function fixture<T = Record<string, any>>(name: 'application' | 'identity-provider' | 'hris'): T {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8')) as T;
}

/**
 * Payloads with every field the vendor's Python SDK (oaaclient 1.1.15) can emit, built with the
 * builders by `sdk-fields.ts` and committed in `packages/core/fixtures/sdk-fields`.
 */
const SDK_FIXTURES = fileURLToPath(new URL('../../fixtures/sdk-fields/', import.meta.url));

/** A fresh deep copy of an every-field payload (see `SDK_FIXTURES`). */
export function sdkFixture<T = Record<string, any>>(name: 'application' | 'identity_provider' | 'hris'): T {
  return JSON.parse(readFileSync(`${SDK_FIXTURES}${name}.json`, 'utf8')) as T;
}

/** Asserts that `list` holds exactly one violation, at `field`, whose description matches. */
export function expectOnly(list: Violation[], field: string, description: RegExp): void {
  expect(list, JSON.stringify(list)).toHaveLength(1);
  expect(list[0]!.field).toBe(field);
  expect(list[0]!.description).toMatch(description);
}
