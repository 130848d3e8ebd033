import { expectTypeOf, test } from 'vitest';
import type { Streamable } from './json-values.js';

interface Payload {
  applications: { name: string; local_users: { name: string; groups?: string[] }[]; created?: Date }[];
}

test('Streamable accepts iterables and async iterables wherever the payload has an array', () => {
  async function* users(): AsyncGenerator<{ name: string; groups?: Iterable<string> }> {
    yield await Promise.resolve({ name: 'u', groups: new Set(['g']) });
  }
  const streamed = { applications: [{ name: 'a', local_users: users(), created: new Date() }] };
  expectTypeOf(streamed).toExtend<Streamable<Payload>>();
  expectTypeOf({ applications: [{ name: 'a', local_users: [{ name: 'u' }] }] }).toExtend<
    Streamable<Payload>
  >();
  expectTypeOf({ applications: [{ name: 'a', local_users: [{ name: 1 }] }] }).not.toExtend<
    Streamable<Payload>
  >();
  expectTypeOf({ applications: [{ name: 'a', local_users: 'u' }] }).not.toExtend<Streamable<Payload>>();
});
