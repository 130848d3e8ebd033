import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from './load-config.js';
import { configJsonSchema } from './schema.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function failure(fn: () => unknown): OaaError {
  try {
    fn();
  } catch (error) {
    if (error instanceof OaaError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

const entry = { id: 'hr', plugin: './plugins/hr', provider: 'HR', dataSource: 'HR prod' };

describe('config file', () => {
  it('loads YAML from the directory and resolves the state dir beside it', async () => {
    await writeFile(
      join(dir, 'oaa.config.yaml'),
      'connectors:\n  - id: hr\n    plugin: ./p\n    provider: HR\n    dataSource: main\n',
    );
    const loaded = await loadConfig({ cwd: dir });
    expect(loaded.config.connectors[0]?.id).toBe('hr');
    expect(loaded.stateDir).toBe(join(dir, '.oaa/state'));
  });

  it('names a wrong key and lists the allowed ones', () => {
    const error = failure(() => parseConfig({ connectors: [{ ...entry, plugn: 'x' }] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('connectors[0].plugn: unknown key; allowed here: id, plugin, provider');
  });

  it('says a missing key is required, by path', () => {
    const { plugin: _p, ...noPlugin } = entry;
    const error = failure(() => parseConfig({ connectors: [noPlugin] }));
    expect(error.message).toContain('connectors[0].plugin: required');
    expect(error.details['violations']).toEqual([{ field: 'connectors[0].plugin', description: 'required' }]);
  });

  it('refuses a plain secret value without repeating it', () => {
    const error = failure(() =>
      parseConfig({ connectors: [{ ...entry, secrets: { token: 'hunter2-plain' } }] }),
    );
    expect(error.message).toContain(
      'connectors[0].secrets.token: must be a reference (env:VARIABLE or keychain:SERVICE/ACCOUNT)',
    );
    expect(JSON.stringify(error.toJSON())).not.toContain('hunter2-plain');
  });

  it('accepts env and keychain references', () => {
    const config = parseConfig({
      connectors: [{ ...entry, secrets: { a: 'env:HR_TOKEN', b: 'keychain:hr/api' } }],
    });
    expect(config.connectors[0]?.secrets).toEqual({ a: 'env:HR_TOKEN', b: 'keychain:hr/api' });
  });

  it('takes the fields a recording scrubs, and names a wrong record section', () => {
    const config = parseConfig({ connectors: [{ ...entry, record: { scrubFields: ['password'] } }] });
    expect(config.connectors[0]?.record).toEqual({ scrubFields: ['password'] });
    const error = failure(() =>
      parseConfig({ connectors: [{ ...entry, record: { scrubFields: 'password', scrub: [] } }] }),
    );
    expect(error.message).toContain('connectors[0].record.scrubFields: must be a list, not a string');
    expect(error.message).toContain('connectors[0].record.scrub: unknown key; allowed here: scrubFields');
  });

  it('checks cron schedules, time zones, shares and duplicate ids', () => {
    const error = failure(() =>
      parseConfig({
        connectors: [
          { ...entry, schedule: 'every hour', timezone: 'Mars/Base', maxDeletionShare: 2 },
          { ...entry, provider: 'Other' },
        ],
      }),
    );
    expect(error.message).toContain('connectors[0].schedule: must be a cron expression');
    expect(error.message).toContain('connectors[0].timezone: must be an IANA time zone');
    expect(error.message).toContain('connectors[0].maxDeletionShare: must be from 0 to 1');
    expect(error.message).toContain('connectors[1].id: duplicates connectors[0].id');
  });

  it('reports a top-level type error instead of crashing', () => {
    const error = failure(() => parseConfig({ connectors: 5 }));
    expect(error.message).toContain('connectors: must be a list, not a number');
  });

  it('reports YAML syntax errors and a missing file', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'connectors: [\n');
    await expect(loadConfig({ cwd: dir, path: 'bad.yaml' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    await expect(loadConfig({ cwd: dir })).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND' });
  });

  it('publishes a JSON Schema that rejects unknown keys', () => {
    const schema = configJsonSchema();
    expect(schema['additionalProperties']).toBe(false);
    expect(schema['required']).toEqual(['connectors']);
  });
});
