/**
 * Semantic rules of the hris template, in phases so that the employees (the collection that grows
 * with the source, possibly streamed) are read once: `checkRest` (the system and the groups), the
 * `employees` visitor, then `finish` (managers named before their employee was seen).
 */
import { hrisEmployeeSchema, type HrisEmployee, type HrisPayload } from '../schemas/hris.js';
import { toArray } from './collections.js';
import { compile, type Check } from './compile.js';
import type { CheckContext, PathSegment } from './context.js';
import { NameIndex } from './names.js';
import { checkCustomProperties } from './properties.js';
import { visitAll, type EntityVisitor } from './visit.js';

/**
 * The hris rules over a payload whose employees may be streamed: `checkRest` first, then the
 * `employees` visitor over every employee in order, then `finish`. Groups are known before the
 * first employee; a manager may be an employee read later, so managers that name no employee seen
 * so far are kept (where, and the id; not the employee) and judged by `finish`.
 */
export class HrisChecks implements EntityVisitor<HrisEmployee> {
  private readonly defs: HrisPayload['custom_property_definition'];
  private readonly groups = new NameIndex('group id');
  private readonly employees = new NameIndex('employee id');
  private readonly checkShape: Check;
  /** Managers not seen yet when named: the employee's index, the manager's position and id. */
  private readonly laterManagers: { employee: number[]; at: number[]; id: string[] } = {
    employee: [],
    at: [],
    id: [],
  };

  constructor(
    private readonly p: HrisPayload,
    private readonly ctx: CheckContext,
  ) {
    this.defs = p.custom_property_definition;
    this.checkShape = compile(hrisEmployeeSchema);
  }

  /** Everything but the employees. */
  checkRest(): void {
    const { p, ctx, defs } = this;
    ctx.at('system', () =>
      checkCustomProperties(p.system.custom_properties, defs?.system_properties, 'system_properties', ctx),
    );
    ctx.at('groups', () =>
      toArray(p.groups).forEach((g, i) =>
        ctx.at(i, () => {
          this.groups.add(g.id, i, ctx, 'id');
          checkCustomProperties(g.custom_properties, defs?.group_properties, 'group_properties', ctx);
        }),
      ),
    );
  }

  begin(): void {
    this.ctx.path.push('employees');
  }

  end(): void {
    this.ctx.path.pop();
  }

  /** One employee: its shape (left to this pass by `checkShape`), then its rules. */
  visit(e: HrisEmployee, i: number): void {
    const { ctx } = this;
    ctx.path.push(i);
    const before = ctx.errors.length;
    this.checkShape(e, ctx);
    if (ctx.errors.length === before) this.checkEmployee(e, i);
    // Still known by its id, so that managers naming it do not add errors of their own.
    else if (typeof (e as { id?: unknown } | null)?.id === 'string') this.employees.add(e.id, i, ctx, 'id');
    ctx.path.pop();
  }

  /** The rules that need every employee seen: each manager is an employee. */
  finish(): void {
    const { employee, at, id } = this.laterManagers;
    for (let k = 0; k < employee.length; k++) {
      if (this.employees.has(id[k]!)) continue;
      this.ctx.error(
        `manager ${JSON.stringify(id[k])} is not the id of an employee in employees`,
        'employees',
        employee[k]!,
        'managers',
        at[k]!,
        'id',
      );
    }
    employee.length = 0;
    at.length = 0;
    id.length = 0;
  }

  private checkEmployee(e: HrisEmployee, i: number): void {
    const { ctx, defs } = this;
    this.employees.add(e.id, i, ctx, 'id');
    checkCustomProperties(e.custom_properties, defs?.employee_properties, 'employee_properties', ctx);
    const managers = e.managers;
    if (managers) {
      for (let j = 0; j < managers.length; j++) {
        const id = managers[j]!.id;
        if (this.employees.has(id)) continue;
        this.laterManagers.employee.push(i);
        this.laterManagers.at.push(j);
        this.laterManagers.id.push(id);
      }
    }
    (e.groups ?? []).forEach((g, j) => this.groupRef(g, 'group', 'groups', j));
    this.groupRef(e.department, 'department', 'department');
    this.groupRef(e.cost_center, 'cost center', 'cost_center');
  }

  private groupRef(ref: { id: string } | null | undefined, what: string, ...field: PathSegment[]): void {
    if (ref && !this.groups.has(ref.id))
      this.ctx.error(`${what} ${JSON.stringify(ref.id)} is not the id of a group in groups`, ...field, 'id');
  }
}

/** Runs every hris rule over a payload held in memory (or with re-iterable employees). */
export function checkHrisPayload(p: HrisPayload, ctx: CheckContext): void {
  const checks = new HrisChecks(p, ctx);
  checks.checkRest();
  visitAll(p.employees, checks, ctx, 'employees');
  checks.finish();
}
