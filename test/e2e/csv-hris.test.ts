/**
 * The CSV HRIS plugin through the built `oaa run`, against an emulator started here: the push lands
 * as employees, managers and department / cost-center groups in the emulator's graph; an unchanged
 * second run pushes nothing; a changed export shows its diff in a dry run, still pushing nothing.
 */
import assert from 'node:assert/strict';
import { copyFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutput } from '@oaakit/cli';
import { json, oaa, tempDir } from '../../packages/cli/src/private-test-helpers/run-oaa.js';
import type { OaaResult } from '../../packages/cli/src/private-test-helpers/run-oaa.js';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { GraphNodeView, TestEmulator } from '@oaakit/emulator/testing';

const here = dirname(fileURLToPath(import.meta.url));
const PLUGIN = resolve(here, '../../plugins/csv-hris');
const FIXTURES = resolve(here, '../fixtures/csv-hris');
const EMPLOYEE = 'OAA.AcmeHR.HRISEmployee';
const GROUP = 'OAA.AcmeHR.HRISGroup';

let emu: TestEmulator;
let work: { dir: string; remove: () => Promise<void> };
let configPath: string;
/** The data source the first run created, from its JSON summary. */
let dataSourceId: string;

function run(args: string[]): Promise<OaaResult> {
  return oaa(['run', '--config', configPath, ...args], { cwd: work.dir, env: emu.env });
}

/** The employee node of an employee number. */
function employee(nodes: readonly GraphNodeView[], number: string): GraphNodeView {
  const node = nodes.find((n) => n.type === EMPLOYEE && n.properties['employee_number'] === number);
  if (node === undefined) throw new Error(`no employee node ${number} among ${nodes.length} nodes`);
  return node;
}

beforeAll(async () => {
  emu = await startTestEmulator({ role: 'admin' });
  work = await tempDir('oaa-e2e-csv-');
  await copyFile(join(FIXTURES, 'employees.csv'), join(work.dir, 'employees.csv'));
  configPath = join(work.dir, 'oaa.config.json');
  const config = {
    connectors: [
      {
        id: 'acme-hr',
        plugin: PLUGIN,
        provider: 'Acme People',
        dataSource: 'HR export',
        config: {
          files: 'employees.csv',
          hrisType: 'AcmeHR',
          system: { id: 'acme-hr', name: 'Acme HR' },
        },
      },
    ],
  };
  await writeFile(configPath, JSON.stringify(config, null, 2));
});

afterAll(async () => {
  await emu?.close();
  await work?.remove();
});

describe('oaa run with the CSV HRIS plugin', () => {
  it('pushes the export and prints a JSON summary', async () => {
    const res = await run(['--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = json<RunOutput>(res);
    expect(out.failures).toEqual([]);
    expect(out.results).toHaveLength(1);
    const result = out.results[0]!;
    expect(result).toMatchObject({
      connectorId: 'acme-hr',
      template: 'hris',
      status: 'pushed',
      provider: { name: 'Acme People', created: true },
      dataSource: { name: 'HR export', created: true },
      // 3 departments and 3 cost centers.
      counts: { employees: 6, groups: 6 },
      diff: { firstPush: true, byKind: { employees: { added: 6, removed: 0, changed: 0 } } },
      push: { mode: 'single' },
    });
    assert(result.status === 'pushed');
    dataSourceId = result.dataSource.id;
    expect((await emu.admin.calls.pushes()).length).toBe(1);
  });

  it('leaves the employees, their managers and their groups in the graph', async () => {
    const nodes = await emu.admin.graph.nodes({ dataSourceId: dataSourceId });
    expect(nodes.filter((n) => n.type === EMPLOYEE)).toHaveLength(6);
    const quinn = employee(nodes, 'E-300');
    expect(quinn).toMatchObject({
      name: 'Quinn Lopez',
      properties: { email: 'quinn.lopez@example.com', job_title: 'Staff Engineer', is_active: true },
    });

    const managedBy = await emu.admin.graph.edges({ dataSourceId: dataSourceId, kind: 'MANAGED_BY' });
    const managerOf = (node: GraphNodeView): (string | null)[] =>
      managedBy.filter((e) => e.src === node.id).map((e) => e.dst);
    // Quinn's manager is given by work email (in another case), Paul's by employee number.
    expect(managerOf(quinn)).toEqual([employee(nodes, 'E-200').id]);
    expect(managerOf(employee(nodes, 'E-200'))).toEqual([employee(nodes, 'E-100').id]);
    expect(managerOf(employee(nodes, 'E-500'))).toEqual([employee(nodes, 'E-100').id]);
    expect(managerOf(employee(nodes, 'E-100'))).toEqual([]);
    expect(managedBy).toHaveLength(5);

    const groupOf = async (kind: string): Promise<GraphNodeView | undefined> => {
      const edge = (await emu.admin.graph.edges({ dataSourceId: dataSourceId, kind: kind })).find(
        (e) => e.src === quinn.id,
      );
      return nodes.find((n) => n.id === edge?.dst);
    };
    expect(await groupOf('DEPARTMENT')).toMatchObject({
      type: GROUP,
      name: 'Engineering',
      properties: { group_type: 'Department' },
    });
    expect(await groupOf('COST_CENTER')).toMatchObject({
      type: GROUP,
      name: 'CC-200',
      properties: { group_type: 'Cost Center' },
    });
  });

  it('reports an unchanged second run and makes no second push', async () => {
    const res = await run(['--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = json<RunOutput>(res);
    expect(out.results[0]).toMatchObject({ connectorId: 'acme-hr', status: 'skipped', skipped: 'unchanged' });
    expect((await emu.admin.calls.pushes()).length).toBe(1);
  });

  it('shows one removed and one changed employee in a dry run of a changed export, pushing nothing', async () => {
    // The export without E-600, and E-400 with a new title.
    await copyFile(join(FIXTURES, 'employees-changed.csv'), join(work.dir, 'employees.csv'));
    const res = await run(['--dry-run', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = json<RunOutput>(res);
    expect(out.dryRun).toBe(true);
    const result = out.results[0]!;
    expect(result).toMatchObject({ status: 'dry-run', counts: { employees: 5, groups: 6 } });
    expect(result.diff.firstPush).toBe(false);
    expect(result.diff.byKind.employees).toEqual({ added: 0, removed: 1, changed: 1 });
    expect(result.diff.byKind.groups ?? { added: 0, removed: 0, changed: 0 }).toEqual({
      added: 0,
      removed: 0,
      changed: 0,
    });
    expect(result.guard?.refused).not.toBe(true);

    expect((await emu.admin.calls.pushes()).length).toBe(1);
    const employees = await emu.admin.graph.nodes({ dataSourceId: dataSourceId, type: EMPLOYEE });
    expect(employees).toHaveLength(6);
    expect(employee(employees, 'E-400').properties['job_title']).toBe('Engineer');
  });
});
