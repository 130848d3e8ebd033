/**
 * The `hris` template into the graph: the system, its employees and groups, group membership,
 * department and cost-center links, manager links, and identity references by which employees are
 * matched to identity-provider users (`idp_id`, then `email`, then `id`: the edge's `priority`).
 */
import type { HrisEmployee, HrisPayload } from '@oaakit/core';
import { entityProperties, fold } from './properties.js';
import type { GraphWriter } from './writer.js';

const EMPLOYEE_SKIP = new Set(['managers', 'groups', 'cost_center', 'department']);

/** Writes an `hris` payload; returns warnings for anything it had to skip. */
export function ingestHris(
  w: GraphWriter,
  payload: HrisPayload,
): { warnings: string[]; hrisTypes: string[] } {
  const warnings: string[] = [];
  const t = payload.hris_type;
  const s = payload.system;
  const systemRid = w.node({
    kind: 'system',
    key: fold(s.id),
    type: `OAA.${t}.HRISSystem`,
    name: s.name,
    properties: entityProperties(s, new Set()),
  });

  const groups = new Map<string, number>();
  for (const g of payload.groups ?? []) {
    if (groups.has(fold(g.id))) continue;
    groups.set(
      fold(g.id),
      w.node({
        kind: 'group',
        key: fold(g.id),
        type: `OAA.${t}.HRISGroup`,
        name: g.name,
        parent: systemRid,
        properties: entityProperties(g, new Set()),
      }),
    );
  }

  const employees = new Map<string, number>();
  const written: [HrisEmployee, number][] = [];
  for (const e of payload.employees ?? []) {
    if (employees.has(fold(e.id))) continue;
    const rid = w.node({
      kind: 'employee',
      key: fold(e.id),
      type: `OAA.${t}.HRISEmployee`,
      name: e.name,
      parent: systemRid,
      properties: entityProperties(e, EMPLOYEE_SKIP),
    });
    employees.set(fold(e.id), rid);
    written.push([e, rid]);
  }

  const toGroup = (rid: number, groupId: string, kind: 'MEMBER_OF' | 'DEPARTMENT' | 'COST_CENTER'): void => {
    const group = groups.get(fold(groupId));
    if (group === undefined) w.edge(rid, undefined, kind, { ref: groupId });
    else w.edge(rid, group, kind);
  };
  for (const [e, rid] of written) {
    for (const g of e.groups ?? []) toGroup(rid, g.id, 'MEMBER_OF');
    if (e.department) toGroup(rid, e.department.id, 'DEPARTMENT');
    if (e.cost_center) toGroup(rid, e.cost_center.id, 'COST_CENTER');
    for (const m of e.managers ?? []) {
      const manager = employees.get(fold(m.id));
      if (manager === undefined)
        warnings.push(`employee ${JSON.stringify(e.id)} names unknown manager ${JSON.stringify(m.id)}`);
      else w.edge(rid, manager, 'MANAGED_BY');
    }
    const refs: [string | null | undefined, number][] = [
      [e.idp_id, 1],
      [e.email, 2],
      [e.id, 3],
    ];
    for (const [ref, priority] of refs)
      if (ref) w.edge(rid, undefined, 'HAS_IDENTITY', { ref: fold(ref), props: { priority } });
  }
  return { warnings, hrisTypes: [t] };
}
