// A connector whose definition depends on its config, as the REST connector's depends on its
// manifest: `forConfig` makes an hris connector with a secret of the name the config gives, refuses
// the flavour "refused", and for "nested" returns a connector that has forConfig itself.
import { CONNECTOR_API_VERSION, OaaError, defineConnector } from '@oaakit/core';
import * as z from 'zod';

const configSchema = z.strictObject({
  flavour: z.string().meta({ description: 'what forConfig makes' }),
  secretName: z.string().default('hrToken').meta({ description: 'the secret the made connector declares' }),
});

function hris(config) {
  return defineConnector({
    id: `fixture-${config.flavour}`,
    version: '1.0.0',
    apiVersion: CONNECTOR_API_VERSION,
    template: 'hris',
    configSchema,
    secrets: [{ name: config.secretName, description: 'token of the fixture HR system' }],
    async check(ctx) {
      if (ctx.secrets[config.secretName] !== 'hr-token-value') throw new Error('wrong token');
    },
    extract(ctx) {
      if (ctx.secrets[config.secretName] !== 'hr-token-value') throw new Error('wrong token');
      return {
        name: 'Fixture HR',
        hris_type: 'FixtureHR',
        system: { id: 'fixture', name: 'Fixture HR' },
        employees: [
          {
            id: 'e1',
            name: 'Ada',
            employee_number: '1',
            first_name: 'Ada',
            last_name: 'Lovelace',
            employment_status: 'ACTIVE',
            is_active: true,
          },
        ],
        groups: [],
      };
    },
  });
}

export default defineConnector({
  id: 'fixture-for-config',
  version: '1.0.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  configSchema,
  forConfig(config) {
    if (config.flavour === 'refused')
      throw new OaaError('flavour "refused" is not made here', {
        code: 'FLAVOUR_UNKNOWN',
        hints: ['use flavour "people"'],
      });
    if (config.flavour === 'nested') return { ...hris(config), forConfig: () => hris(config) };
    return hris(config);
  },
  extract() {
    throw new Error('the runner runs the connector forConfig makes, never this one');
  },
});
