/** Semantic rules of the hris template. */
import type { HrisPayload } from '../schemas/hris.js';
import type { CheckContext } from './context.js';
import { NameIndex } from './names.js';
import { checkCustomProperties } from './properties.js';

export function checkHrisPayload(p: HrisPayload, ctx: CheckContext): void {
  const defs = p.custom_property_definition;
  ctx.at('system', () =>
    checkCustomProperties(p.system.custom_properties, defs?.system_properties, 'system_properties', ctx),
  );

  const groups = new NameIndex('group id');
  ctx.at('groups', () =>
    (p.groups ?? []).forEach((g, i) =>
      ctx.at(i, () => {
        groups.add(g.id, i, ctx, 'id');
        checkCustomProperties(g.custom_properties, defs?.group_properties, 'group_properties', ctx);
      }),
    ),
  );

  const employees = new NameIndex('employee id');
  const list = p.employees ?? [];
  ctx.at('employees', () => list.forEach((e, i) => ctx.at(i, () => void employees.add(e.id, i, ctx, 'id'))));
  const groupRef = (ref: { id: string } | null | undefined, what: string, ...field: (string | number)[]) => {
    if (ref && !groups.has(ref.id))
      ctx.error(`${what} ${JSON.stringify(ref.id)} is not the id of a group in groups`, ...field, 'id');
  };
  ctx.at('employees', () =>
    list.forEach((e, i) =>
      ctx.at(i, () => {
        checkCustomProperties(e.custom_properties, defs?.employee_properties, 'employee_properties', ctx);
        (e.managers ?? []).forEach((m, j) => {
          if (!employees.has(m.id))
            ctx.error(
              `manager ${JSON.stringify(m.id)} is not the id of an employee in employees`,
              'managers',
              j,
              'id',
            );
        });
        (e.groups ?? []).forEach((g, j) => groupRef(g, 'group', 'groups', j));
        groupRef(e.department, 'department', 'department');
        groupRef(e.cost_center, 'cost center', 'cost_center');
      }),
    ),
  );
}
