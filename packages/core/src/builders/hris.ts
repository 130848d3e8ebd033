/** Builder of `hris` payloads. */
import { ValidationError, type Violation } from '../errors.js';
import type { PropertyType } from '../schemas/common.js';
import type { HrisEmployee, HrisGroup, HrisPayload } from '../schemas/hris.js';
import { Registry } from './registry.js';

type PropertyKind = 'system' | 'employee' | 'group';

/**
 * Builds an `hris` payload. Groups (departments, cost centers) must be added before the employees
 * that reference them; managers may be added in any order and are checked by `build()`.
 *
 * @example
 * const b = new HrisPayloadBuilder({ name: 'Acme HR', hris_type: 'acme', system: { id: 'acme', name: 'Acme HR' } });
 * b.addGroup({ id: 'eng', name: 'Engineering', group_type: 'Department' });
 * b.addEmployee({ id: 'E1', name: 'Alice Smith', employee_number: '1', first_name: 'Alice', last_name: 'Smith',
 *   employment_status: 'ACTIVE', is_active: true, department: { id: 'eng' } });
 */
export class HrisPayloadBuilder {
  private readonly payload: HrisPayload;
  private readonly employees = new Registry<HrisEmployee>('employee');
  private readonly groups = new Registry<HrisGroup>('group');

  constructor(header: Pick<HrisPayload, 'name' | 'hris_type' | 'system'>) {
    this.payload = { ...header, employees: [], groups: [] };
  }

  /** Declares a custom property of one entity kind. */
  defineProperty(kind: PropertyKind, name: string, type: PropertyType): this {
    const defs = (this.payload.custom_property_definition ??= {});
    (defs[`${kind}_properties`] ??= {})[name] = type;
    return this;
  }

  addGroup(group: HrisGroup): HrisGroup {
    this.groups.add(group.id, group);
    this.payload.groups!.push(group);
    return group;
  }

  /** The group with `id` (any case), if added. */
  group(id: string): HrisGroup | undefined {
    return this.groups.find(id);
  }

  /** Adds an employee; its groups, department and cost center must exist. */
  addEmployee(employee: HrisEmployee): HrisEmployee {
    for (const g of employee.groups ?? []) this.groups.get(g.id, 'employee', employee.id);
    if (employee.department) this.groups.get(employee.department.id, 'employee', employee.id);
    if (employee.cost_center) this.groups.get(employee.cost_center.id, 'employee', employee.id);
    this.employees.add(employee.id, employee);
    this.payload.employees!.push(employee);
    return employee;
  }

  /** The employee with `id` (any case), if added. */
  employee(id: string): HrisEmployee | undefined {
    return this.employees.find(id);
  }

  /** The payload; throws a `ValidationError` listing every manager that is not an employee. */
  build(): HrisPayload {
    const violations: Violation[] = [];
    this.payload.employees!.forEach((e, i) =>
      (e.managers ?? []).forEach((m, j) => {
        if (!this.employees.find(m.id)) {
          violations.push({
            field: `employees[${i}].managers[${j}].id`,
            description: `manager ${JSON.stringify(m.id)} is not the id of an employee`,
          });
        }
      }),
    );
    if (violations.length)
      throw new ValidationError('the payload has dangling manager references', violations);
    return this.payload;
  }
}
