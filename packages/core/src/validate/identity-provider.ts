/** Semantic rules of the identity_provider template. */
import type { AppAssignment, IdentityProviderPayload } from '../schemas/identity-provider.js';
import type { CheckContext } from './context.js';
import { findCycles, NameIndex } from './names.js';
import { checkCustomProperties } from './properties.js';

const keyOf = (e: { identity?: string | null | undefined; name: string }) => e.identity ?? e.name;

export function checkIdentityProviderPayload(p: IdentityProviderPayload, ctx: CheckContext): void {
  const incremental = p.incremental_change === true;
  const defs = p.custom_property_definition;
  const notIncremental = (op: unknown) => {
    if (!incremental && op) ctx.error('is only allowed when incremental_change is true', 'operation');
  };

  const domains = p.domains ?? [];
  if (!incremental && domains.length !== 1) {
    ctx.error(`an identity provider has exactly one domain; got ${domains.length}`, 'domains');
  }
  ctx.at('domains', () =>
    domains.forEach((d, i) =>
      ctx.at(i, () => {
        notIncremental(d.operation);
        checkCustomProperties(d.custom_properties, defs?.domain_properties, 'domain_properties', ctx);
      }),
    ),
  );

  const apps = new NameIndex('app');
  ctx.at('apps', () =>
    (p.apps ?? []).forEach((a, i) =>
      ctx.at(i, () => {
        apps.add(a.id, i, ctx, 'id', a.operation);
        notIncremental(a.operation);
        checkCustomProperties(a.custom_properties, defs?.app_properties, 'app_properties', ctx);
      }),
    ),
  );
  const checkAssignments = (list: readonly AppAssignment[] | null | undefined) =>
    (list ?? []).forEach((a, j) => {
      if (!incremental && !apps.has(a.app_id))
        ctx.error(`app ${JSON.stringify(a.app_id)} does not exist in apps`, 'app_assignments', j, 'app_id');
      if (a.custom_properties)
        ctx.at('app_assignments', () =>
          ctx.at(j, () =>
            checkCustomProperties(
              a.custom_properties,
              defs?.app_assignment_properties,
              'app_assignment_properties',
              ctx,
            ),
          ),
        );
    });

  const groups = new NameIndex('group');
  const groupList = p.groups ?? [];
  groupList.forEach((g, i) =>
    ctx.at('groups', () =>
      ctx.at(i, () => void groups.add(keyOf(g), i, ctx, g.identity ? 'identity' : 'name', g.operation)),
    ),
  );
  const parents: number[][] = groupList.map(() => []);
  ctx.at('groups', () =>
    groupList.forEach((g, i) =>
      ctx.at(i, () => {
        notIncremental(g.operation);
        checkCustomProperties(g.custom_properties, defs?.group_properties, 'group_properties', ctx);
        checkAssignments(g.app_assignments);
        (g.groups ?? []).forEach((ref, j) => {
          const target = groups.get(ref.identity);
          if (target !== undefined) parents[i]!.push(target);
          else if (!incremental)
            ctx.error(
              `group ${JSON.stringify(ref.identity)} does not exist in groups`,
              'groups',
              j,
              'identity',
            );
        });
      }),
    ),
  );
  for (const cycle of findCycles(parents)) {
    const names = [...cycle, cycle[0]!].map((i) => JSON.stringify(groupList[i]!.name)).join(' -> ');
    ctx.error(`group nesting has a cycle: ${names}`, 'groups', cycle[0]!, 'groups');
  }

  const users = new NameIndex('user identity');
  const userList = p.users ?? [];
  ctx.at('users', () =>
    userList.forEach((u, i) =>
      ctx.at(i, () => void users.add(keyOf(u), i, ctx, u.identity ? 'identity' : 'name', u.operation)),
    ),
  );
  ctx.at('users', () =>
    userList.forEach((u, i) =>
      ctx.at(i, () => {
        notIncremental(u.operation);
        checkCustomProperties(u.custom_properties, defs?.user_properties, 'user_properties', ctx);
        checkAssignments(u.app_assignments);
        if (incremental) return;
        if (u.manager_id && !users.has(u.manager_id))
          ctx.error(
            `manager ${JSON.stringify(u.manager_id)} is not the identity of a user in users`,
            'manager_id',
          );
        (u.groups ?? []).forEach((ref, j) => {
          if (!groups.has(ref.identity))
            ctx.error(
              `group ${JSON.stringify(ref.identity)} does not exist in groups`,
              'groups',
              j,
              'identity',
            );
        });
      }),
    ),
  );
}
