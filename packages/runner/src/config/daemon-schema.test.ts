import { OaaError } from '@oaakit/core';
import { describe, expect, it } from 'vitest';
import { DAEMON_DEFAULTS, resolveDaemonSettings } from './daemon-schema.js';
import { parseConfig } from './load-config.js';
import { configJsonSchema } from './schema.js';

const entry = { id: 'hr', plugin: './plugins/hr', provider: 'HR', dataSource: 'HR prod' };

function failure(fn: () => unknown): OaaError {
  try {
    fn();
  } catch (error) {
    if (error instanceof OaaError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('the daemon section of the config file', () => {
  it('accepts port, host, concurrency and grace period next to seconds-resolution schedules', () => {
    const config = parseConfig({
      connectors: [{ ...entry, schedule: '*/1 * * * * *', timezone: 'Europe/Berlin', jitterSeconds: 5 }],
      daemon: { port: 0, host: '0.0.0.0', concurrency: 4, graceSeconds: 2.5 },
    });
    expect(config.daemon).toEqual({ port: 0, host: '0.0.0.0', concurrency: 4, graceSeconds: 2.5 });
  });

  it('names each bad key by path', () => {
    const error = failure(() =>
      parseConfig({
        connectors: [entry],
        daemon: { port: 70000, concurrency: 0, graceSeconds: -1, prot: 1 },
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('daemon.port: must be from 0 to 65535');
    expect(error.message).toContain('daemon.concurrency: must be from 1 to 64');
    expect(error.message).toContain('daemon.graceSeconds: must be from 0 to 3600');
    expect(error.message).toContain(
      'daemon.prot: unknown key; allowed here: port, host, concurrency, graceSeconds',
    );
  });

  it('lets flags win over the config, and the config over the defaults', () => {
    expect(resolveDaemonSettings(undefined)).toEqual(DAEMON_DEFAULTS);
    expect(resolveDaemonSettings({ port: 8000, concurrency: 3 }, { port: 0 })).toEqual({
      ...DAEMON_DEFAULTS,
      port: 0,
      concurrency: 3,
    });
  });

  it('is part of the published JSON Schema', () => {
    const properties = configJsonSchema()['properties'] as Record<string, { properties?: object }>;
    expect(Object.keys(properties['daemon']?.properties ?? {})).toEqual([
      'port',
      'host',
      'concurrency',
      'graceSeconds',
    ]);
  });
});
