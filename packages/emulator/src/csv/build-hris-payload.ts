/**
 * CSV rows into an `hris` payload: one row per employee; groups, departments and cost centers are
 * created from the ids in the cells.
 */
import type { HrisEmployee, HrisGroup, HrisPayload } from '@oaakit/core';
import type { BuiltPayload } from './build-app-payload.js';
import type { CellReader, Row } from './cells.js';
import type { CsvConfig } from './csv-config.js';

const TEXT_FIELDS = [
  'employee_number',
  'first_name',
  'last_name',
  'email',
  'idp_id',
  'employment_status',
  'job_title',
  'company',
  'preferred_name',
  'display_full_name',
  'canonical_name',
  'username',
  'personal_email',
  'home_location',
  'work_location',
  'primary_time_zone',
] as const;

/** Builds the payload from the mapped rows, read as they come. */
export async function buildHrisPayload(
  rows: AsyncIterable<Row>,
  cells: CellReader,
  config: CsvConfig,
  providerName: string,
): Promise<BuiltPayload> {
  const employees: HrisEmployee[] = [];
  const lines: number[] = [];
  const seen = new Map<string, number>();
  const groups = new Map<string, HrisGroup>();
  const addGroup = (id: string, type?: string): void => {
    if (!groups.has(id.toLowerCase()))
      groups.set(id.toLowerCase(), { id, name: id, ...(type === undefined ? {} : { group_type: type }) });
  };

  for await (const row of rows) {
    const id = cells.required(row, 'id');
    if (id === undefined) continue;
    const first = seen.get(id.toLowerCase());
    if (first !== undefined) {
      cells.problem(
        row.line,
        undefined,
        `employee id ${JSON.stringify(id)} appears again (first on line ${first})`,
      );
      continue;
    }
    seen.set(id.toLowerCase(), row.line);
    const e: Record<string, unknown> = { id };
    for (const f of TEXT_FIELDS) {
      const v = cells.text(row, f);
      if (v !== undefined) e[f] = v;
    }
    const firstName = cells.text(row, 'first_name');
    const lastName = cells.text(row, 'last_name');
    e.name = cells.text(row, 'name') ?? ([firstName, lastName].filter(Boolean).join(' ') || id);
    const active = cells.bool(row, 'is_active');
    if (active !== undefined) e.is_active = active;
    for (const f of ['start_date', 'termination_date'] as const) {
      const t = cells.time(row, f);
      if (t !== undefined) e[f] = t;
    }
    const managers = cells.list(row, 'managers');
    if (managers.length) e.managers = managers.map((m) => ({ id: m }));
    const memberOf = cells.list(row, 'groups');
    memberOf.forEach((g) => addGroup(g));
    if (memberOf.length) e.groups = memberOf.map((g) => ({ id: g }));
    const department = cells.text(row, 'department');
    if (department !== undefined) {
      addGroup(department, 'Department');
      e.department = { id: department };
    }
    const costCenter = cells.text(row, 'cost_center');
    if (costCenter !== undefined) {
      addGroup(costCenter, 'Cost Center');
      e.cost_center = { id: costCenter };
    }
    const types = cells.list(row, 'employment_types');
    if (types.length) e.employment_types = types;
    const props = cells.properties(row);
    if (props) e.custom_properties = props;
    employees.push(e as HrisEmployee);
    lines.push(row.line);
  }

  const systemName = config.hrisSystem.name ?? providerName;
  const payload: HrisPayload = {
    name: config.hris.name ?? providerName,
    hris_type: config.hris.hris_type ?? providerName,
    custom_property_definition: { employee_properties: cells.propertyDefinitions() },
    system: {
      id: config.hrisSystem.id ?? systemName,
      name: systemName,
      ...(config.hrisSystem.url === undefined ? {} : { url: config.hrisSystem.url }),
    },
    employees,
    groups: [...groups.values()],
  };
  return {
    payload,
    lineOf: (field) => {
      const m = /^employees\[(\d+)\]/.exec(field);
      return m ? lines[Number(m[1])] : undefined;
    },
  };
}
