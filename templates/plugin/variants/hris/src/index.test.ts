/**
 * Runs the connector the way `oaa run` does (runConnector: extract, validate, diff, push, state)
 * against a real emulator on a free port, then reads what the emulator's graph holds.
 */
import { checkConnector } from '@oaakit/runner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import connector from './index.js';
import { fixture, pushedId, serveSource, startHarness, token } from './private-test-helpers/harness.js';
import type { Harness } from './private-test-helpers/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('__CONNECTOR_ID__', () => {
  it('passes its check on the fixture', async () => {
    const result = await checkConnector({ connector, config: { source: fixture }, secrets: { token } });
    expect(result.checked).toBe(true);
  });

  it('pushes the fixture into the emulator: employees, departments and managers', async () => {
    const result = await h.run();
    expect(result.status).toBe('pushed');
    expect(result.counts).toMatchObject({ employees: 3, groups: 2 });

    const dataSourceId = pushedId(result.dataSource);
    const employees = await h.emulator.admin.graph.nodes({
      dataSourceId,
      type: 'OAA.__SOURCE_TYPE__.HRISEmployee',
    });
    expect(employees.map((e) => e.name).sort()).toEqual(['Alice Smith', 'Bob Jones', 'Carol Diaz']);
    const id = (name: string): string | undefined => employees.find((e) => e.name === name)?.id;
    expect(await h.emulator.admin.graph.edges({ dataSourceId, kind: 'MANAGED_BY' })).toContainEqual(
      expect.objectContaining({ src: id('Bob Jones'), dst: id('Alice Smith') }),
    );
  });

  it('skips a second run when nothing changed', async () => {
    await h.run();
    expect((await h.run()).status).toBe('skipped');
  });

  it('reads the export over HTTP, sending the token', async () => {
    const source = await serveSource();
    try {
      const result = await h.run(source.url, true);
      expect(result.status).toBe('dry-run');
      expect(result.counts.employees).toBe(3);
    } finally {
      await source.close();
    }
  });
});
