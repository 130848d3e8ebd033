/**
 * One application's groups, roles, access credentials and resources, checked and indexed before its
 * users and the grants are read: what they may reference.
 */
import type { Application, ApplicationPropertyDefinition } from '../schemas/application.js';
import { ResourceIndex } from './application-resources.js';
import { checkRoles } from './application-roles.js';
import { toArray } from './collections.js';
import { checkOperation, type CheckContext } from './context.js';
import type { UnmatchedIdentities } from './identities.js';
import { addLocal, aliasLocal } from './local-keys.js';
import { findCycles, fold, NameIndex } from './names.js';
import { checkCustomProperties, type PropertyDefinitions } from './properties.js';

/** What identity_to_permissions may reference inside one application. */
export interface AppScope {
  app: Application;
  users: NameIndex;
  groups: NameIndex;
  roles: NameIndex;
  creds: NameIndex;
  resources: ResourceIndex;
  hasIdpIdentity: boolean;
  /** Whether the users could not be read (an async iterable given to `validate`). */
  usersUnknown?: boolean;
  userProperties: PropertyDefinitions;
  assignmentProperties: PropertyDefinitions;
}

/** What `checkApplication` needs. */
export interface ApplicationCheckInput {
  app: Application;
  /** The custom property definitions of the application's type, if any. */
  def: ApplicationPropertyDefinition | undefined;
  permissions: NameIndex;
  ctx: CheckContext;
  incremental: boolean;
  identities: UnmatchedIdentities;
}

/** Checks everything of one application but its users (the context's path is the application's). */
export function checkApplication(input: ApplicationCheckInput): AppScope {
  const { app, def, ctx, incremental } = input;
  const type = JSON.stringify(app.application_type);
  checkCustomProperties(
    app.custom_properties,
    def?.application_properties,
    `application_properties of application type ${type}`,
    ctx,
  );
  checkOperation(ctx, incremental, app.operation);
  const groups = checkGroups(input, type);
  const roles = checkRoles({
    app,
    properties: def?.local_role_properties,
    permissions: input.permissions,
    ctx,
    incremental,
  });

  const creds = new NameIndex('local access credential');
  const credList = toArray(app.local_access_creds);
  ctx.at('local_access_creds', () =>
    credList.forEach((c, i) =>
      ctx.at(i, () => {
        addLocal(creds, c, i, ctx);
        checkOperation(ctx, incremental, c.operation);
        checkCustomProperties(
          c.custom_properties,
          def?.local_access_creds_properties,
          `local_access_creds_properties of application type ${type}`,
          ctx,
        );
      }),
    ),
  );
  credList.forEach((c, i) => aliasLocal(creds, c, i));

  const resourceDefs = new Map((def?.resources ?? []).map((r) => [fold(r.resource_type), r.properties]));
  const resources = new ResourceIndex((t) => resourceDefs.get(fold(t)), incremental);
  ctx.at('resources', () => resources.walkRoot(app.resources ?? [], ctx));

  return {
    app,
    users: new NameIndex('local user'),
    groups,
    roles,
    creds,
    resources,
    hasIdpIdentity: false,
    userProperties: def?.local_user_properties,
    assignmentProperties: def?.role_assignment_properties,
  };
}

/** The application's groups: keys, properties, identities, and parents (`groups`) without cycles. */
function checkGroups(input: ApplicationCheckInput, type: string): NameIndex {
  const { app, def, ctx, incremental, identities } = input;
  const groups = new NameIndex('local group');
  const list = toArray(app.local_groups);
  const path = ctx.path;
  path.push('local_groups');
  list.forEach((g, i) => {
    path.push(i);
    addLocal(groups, g, i, ctx);
    checkOperation(ctx, incremental, g.operation);
    checkCustomProperties(
      g.custom_properties,
      def?.local_group_properties,
      `local_group_properties of application type ${type}`,
      ctx,
    );
    identities.checkAll(g.identities, ctx);
    path.pop();
  });
  list.forEach((g, i) => aliasLocal(groups, g, i));
  const parents: number[][] = list.map(() => []);
  list.forEach((g, i) =>
    (g.groups ?? []).forEach((ref, j) => {
      const target = groups.get(ref);
      if (target !== undefined) parents[i]!.push(target);
      else if (!incremental)
        ctx.error(
          `local group ${JSON.stringify(ref)} does not exist in application ${JSON.stringify(app.name)}`,
          i,
          'groups',
          j,
        );
    }),
  );
  for (const cycle of findCycles(parents)) {
    const names = [...cycle, cycle[0]!].map((i) => JSON.stringify(list[i]!.name)).join(' -> ');
    ctx.error(`local group nesting has a cycle: ${names}`, cycle[0]!, 'groups');
  }
  path.pop();
  return groups;
}
