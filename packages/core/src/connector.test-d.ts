import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { CONNECTOR_API_VERSION, defineConnector, type ConnectorContext } from './connector.js';
import type { ApplicationPayload } from './schemas/application.js';

describe('defineConnector types', () => {
  it('types ctx.config from the config schema and ctx.secrets from the declared secrets', () => {
    defineConnector({
      id: 'typed',
      version: '1.0.0',
      apiVersion: CONNECTOR_API_VERSION,
      template: 'application',
      configSchema: z.object({ baseUrl: z.string(), pageSize: z.number().default(100) }),
      secrets: [{ name: 'token', description: 'API token' }],
      extract(ctx) {
        expectTypeOf(ctx.config.baseUrl).toEqualTypeOf<string>();
        expectTypeOf(ctx.config.pageSize).toEqualTypeOf<number>();
        expectTypeOf(ctx.secrets.token).toEqualTypeOf<string>();
        // @ts-expect-error: only declared secrets exist
        void ctx.secrets.password;
        return { applications: [{ name: 'x', application_type: 'x' }] } satisfies ApplicationPayload;
      },
    });
  });

  it('requires extract to return the payload of the declared template', () => {
    defineConnector({
      id: 'wrong',
      version: '1.0.0',
      apiVersion: CONNECTOR_API_VERSION,
      template: 'hris',
      configSchema: z.object({}),
      // @ts-expect-error: an application payload is not an hris payload
      extract: () => ({ applications: [{ name: 'x', application_type: 'x' }] }),
    });
  });

  it('accepts async iterables of entities in place of arrays', () => {
    async function* users() {
      yield await Promise.resolve({ name: 'alice' });
    }
    defineConnector({
      id: 'streaming',
      version: '1.0.0',
      apiVersion: CONNECTOR_API_VERSION,
      template: 'application',
      configSchema: z.object({}),
      extract: () => ({ applications: [{ name: 'x', application_type: 'x', local_users: users() }] }),
    });
  });

  it('gives check and extract the same context type', () => {
    type Ctx = ConnectorContext<{ a: string }, 'k'>;
    expectTypeOf<Ctx['signal']>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<Ctx['secrets']>().toEqualTypeOf<Readonly<Record<'k', string>>>();
  });
});
