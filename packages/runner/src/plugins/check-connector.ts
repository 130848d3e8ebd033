import { CONNECTOR_API_VERSION, OaaError, TEMPLATES } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';

/** The API-version refusal, naming both versions. */
export function apiVersionMismatch(plugin: string, declared: unknown, where: string): OaaError {
  return new OaaError(
    `plugin ${plugin} was written for connector apiVersion ${String(declared)} (${where}), but this oaakit supports apiVersion ${CONNECTOR_API_VERSION}`,
    {
      code: RUNNER_ERROR_CODES.PLUGIN_API_VERSION,
      details: { plugin, declared, supported: CONNECTOR_API_VERSION },
      hints: [
        typeof declared === 'number' && declared > CONNECTOR_API_VERSION
          ? 'upgrade oaakit to a version that supports this plugin'
          : 'upgrade the plugin to a version built for this oaakit',
      ],
    },
  );
}

/**
 * Checks that a plugin's export has the shape `defineConnector` returns. The zod schema is checked
 * by its methods, not `instanceof`, since a plugin may bring its own copy of zod.
 */
export function assertConnector(plugin: string, value: unknown): Connector {
  const problems: string[] = [];
  const c = value as Partial<Record<string, unknown>> | null | undefined;
  if (c === null || typeof c !== 'object') {
    problems.push(`exports ${c === null ? 'null' : typeof c} instead of a connector object`);
  } else {
    if (typeof c['id'] !== 'string' || c['id'] === '') problems.push('id must be a non-empty string');
    if (typeof c['version'] !== 'string') problems.push('version must be a string');
    if (typeof c['apiVersion'] !== 'number') problems.push('apiVersion must be a number');
    if (typeof c['template'] !== 'string' || !(TEMPLATES as readonly string[]).includes(c['template'])) {
      problems.push(`template must be one of ${TEMPLATES.join(', ')}`);
    }
    const schema = c['configSchema'] as { safeParse?: unknown } | undefined;
    if (typeof schema?.safeParse !== 'function') problems.push('configSchema must be a zod schema');
    if (typeof c['extract'] !== 'function') problems.push('extract must be a function');
    if (c['secrets'] !== undefined && !Array.isArray(c['secrets'])) problems.push('secrets must be a list');
  }
  if (problems.length > 0) {
    throw new OaaError(`plugin ${plugin} does not export a connector: ${problems.join('; ')}`, {
      code: RUNNER_ERROR_CODES.PLUGIN_INVALID,
      details: { plugin, problems },
      hints: ['export default defineConnector({...}) from @oaakit/core, or export it as `connector`'],
    });
  }
  if (c!['apiVersion'] !== CONNECTOR_API_VERSION)
    throw apiVersionMismatch(plugin, c!['apiVersion'], 'its connector');
  return c as Connector;
}
