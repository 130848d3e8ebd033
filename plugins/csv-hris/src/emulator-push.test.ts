import { gzipSync } from 'node:zlib';
import { validate } from '@oaakit/core';
import {
  startEmulator,
  type GraphEdgeView,
  type GraphNodeView,
  type RunningEmulator,
} from '@oaakit/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractEmployees } from './extract.js';
import { fixture, testContext } from './private-test-helpers/context.js';

describe('the payload pushed into the emulator', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    emu = await startEmulator();
  });
  afterEach(async () => {
    await emu.close();
  });

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(emu.url + path, {
      method,
      headers: {
        authorization: `Bearer ${emu.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  it('is accepted, and the graph holds employees, their managers and departments', async () => {
    const payload = await extractEmployees(
      testContext({
        files: fixture('employees-good.csv'),
        hrisType: 'acme_hr',
        system: { id: 'acme', name: 'Acme HR' },
      }),
    );
    expect(validate('hris', payload).errors).toEqual([]);

    const { value: provider } = await call<{ value: { id: string } }>('POST', '/api/v1/providers/custom', {
      name: 'Acme HR',
      custom_template: 'hris',
    });
    const base = `/api/v1/providers/custom/${provider.id}/datasources`;
    const { value: ds } = await call<{ value: { id: string } }>('POST', base, {
      id: provider.id,
      name: 'employees.csv',
    });
    const json = gzipSync(JSON.stringify(payload)).toString('base64');
    const pushed = await call<{ warnings?: unknown[] }>('POST', `${base}/${ds.id}:push`, {
      id: provider.id,
      data_source_id: ds.id,
      json_data: json,
      compression_type: 'GZIP',
    });
    expect(pushed.warnings ?? []).toEqual([]);
    expect((await call<{ value: { status: string } }>('GET', `${base}/${ds.id}`)).value.status).toBe(
      'SUCCESS',
    );

    const nodes = (
      await call<{ values: GraphNodeView[] }>('GET', `/_emulator/graph/nodes?data_source_id=${ds.id}`)
    ).values;
    const edges = (
      await call<{ values: GraphEdgeView[] }>('GET', `/_emulator/graph/edges?data_source_id=${ds.id}`)
    ).values;
    const node = (type: string, name: string) =>
      nodes.find((n) => n.type === `OAA.acme_hr.${type}` && n.name === name)!;
    const carla = node('HRISEmployee', 'Carla Diaz');
    const bob = node('HRISEmployee', 'Bob "Bobby" Jones');
    expect(nodes.filter((n) => n.type === 'OAA.acme_hr.HRISEmployee')).toHaveLength(5);
    expect(edges).toContainEqual(expect.objectContaining({ kind: 'MANAGED_BY', src: carla.id, dst: bob.id }));
    expect(edges).toContainEqual(
      expect.objectContaining({
        kind: 'DEPARTMENT',
        src: carla.id,
        dst: node('HRISGroup', 'Engineering').id,
      }),
    );
    expect(carla.properties).toMatchObject({ customprop_shirt_size: 'S' });
  });
});
