/**
 * The entity structure of each payload template: which arrays hold entities, how an entity is keyed,
 * and which collections nest inside an entity. Everything else in a payload is plain data.
 */

import { OaaError } from '../errors.js';
import type { Template } from '../schemas/templates.js';

/** An entity collection, named as its field in the payload (sub-resources count as `resources`). */
export type EntityKind =
  | 'applications'
  | 'local_users'
  | 'local_groups'
  | 'local_roles'
  | 'local_access_creds'
  | 'resources'
  | 'permissions'
  | 'identity_to_permissions'
  | 'domains'
  | 'users'
  | 'groups'
  | 'apps'
  | 'employees';

/** Every entity kind, in report order. */
export const ENTITY_KINDS: readonly EntityKind[] = [
  'applications',
  'local_users',
  'local_groups',
  'local_roles',
  'local_access_creds',
  'resources',
  'permissions',
  'identity_to_permissions',
  'domains',
  'users',
  'groups',
  'apps',
  'employees',
];

/**
 * The position of each kind in {@link ENTITY_KINDS}: a small number that stands for the kind where
 * a string would cost (a table of entities, a line of an entity-hash snapshot).
 */
export const ENTITY_KIND_INDEX: ReadonlyMap<EntityKind, number> = new Map(
  ENTITY_KINDS.map((kind, i) => [kind, i]),
);

/**
 * How an entity is keyed: the first of `fields` that holds a value, or a pair of a type and an id.
 * Key values compare case-insensitively, as the service compares names.
 */
export type KeyRule =
  { readonly first: readonly string[] } | { readonly pair: { readonly type: string; readonly id: string } };

/** One kind of entity. */
export interface KindSpec {
  readonly kind: EntityKind;
  /** Singular noun for messages, e.g. `local user`. */
  readonly label: string;
  readonly key: KeyRule;
  /** Fields that identify the entity to the service; a delete or tag entry carries only these. */
  readonly identifying: readonly string[];
  /** Entity collections nested inside this entity. */
  readonly children: readonly ChildCollection[];
}

/** An entity collection under its field name. */
export interface ChildCollection {
  readonly field: string;
  readonly spec: KindSpec;
}

/** The entity structure of one template. */
export interface TemplateSpec {
  readonly template: Template;
  readonly collections: readonly ChildCollection[];
  /** Whether the service accepts `incremental_change: true` for this template. */
  readonly incremental: boolean;
  /** The kind of the template's people, whose removal the deletion guard watches. */
  readonly identityKind: EntityKind;
}

function leaf(kind: EntityKind, label: string, key: KeyRule, identifying: readonly string[]): KindSpec {
  return { kind, label, key, identifying, children: [] };
}

const byName: KeyRule = { first: ['name'] };
const byId: KeyRule = { first: ['id'] };

const resourceChildren: ChildCollection[] = [];
const resource: KindSpec = {
  kind: 'resources',
  label: 'resource',
  key: { first: ['id', 'name'] },
  identifying: ['name', 'id', 'resource_type'],
  children: resourceChildren,
};
resourceChildren.push({ field: 'sub_resources', spec: resource });

// Local identities are known by `id` (what the vendor SDK sends), else `unique_id`, else `name`.
const localKey: KeyRule = { first: ['id', 'unique_id', 'name'] };
const localIdentifying = ['name', 'id', 'unique_id'];
const application: KindSpec = {
  kind: 'applications',
  label: 'application',
  key: byName,
  identifying: ['name', 'application_type'],
  children: [
    { field: 'local_users', spec: leaf('local_users', 'local user', localKey, localIdentifying) },
    { field: 'local_groups', spec: leaf('local_groups', 'local group', localKey, localIdentifying) },
    { field: 'local_roles', spec: leaf('local_roles', 'local role', localKey, localIdentifying) },
    {
      field: 'local_access_creds',
      spec: leaf('local_access_creds', 'local access credential', localKey, localIdentifying),
    },
    { field: 'resources', spec: resource },
  ],
};

const idpPrincipalKey: KeyRule = { first: ['identity', 'name'] };

const SPECS: Readonly<Record<Template, TemplateSpec>> = {
  application: {
    template: 'application',
    incremental: true,
    identityKind: 'local_users',
    collections: [
      { field: 'applications', spec: application },
      { field: 'permissions', spec: leaf('permissions', 'permission', byName, ['name']) },
      {
        field: 'identity_to_permissions',
        spec: leaf(
          'identity_to_permissions',
          'identity_to_permissions entry',
          { pair: { type: 'identity_type', id: 'identity' } },
          ['identity', 'identity_type'],
        ),
      },
    ],
  },
  identity_provider: {
    template: 'identity_provider',
    incremental: true,
    identityKind: 'users',
    collections: [
      { field: 'domains', spec: leaf('domains', 'domain', byName, ['name']) },
      { field: 'users', spec: leaf('users', 'user', idpPrincipalKey, ['name', 'identity']) },
      { field: 'groups', spec: leaf('groups', 'group', idpPrincipalKey, ['name', 'identity']) },
      { field: 'apps', spec: leaf('apps', 'app', byId, ['id', 'name']) },
    ],
  },
  hris: {
    template: 'hris',
    incremental: false,
    identityKind: 'employees',
    collections: [
      { field: 'employees', spec: leaf('employees', 'employee', byId, ['id', 'name']) },
      { field: 'groups', spec: leaf('groups', 'group', byId, ['id', 'name']) },
    ],
  },
};

/** The entity structure of `template`; throws `OaaError` `TEMPLATE_UNKNOWN` for any other name. */
export function templateSpec(template: Template): TemplateSpec {
  const spec = (SPECS as Partial<Record<string, TemplateSpec>>)[template];
  if (spec === undefined) throw unknownTemplate(template);
  return spec;
}

function unknownTemplate(template: string): OaaError {
  return new OaaError(`unknown payload template '${template}'`, {
    code: 'TEMPLATE_UNKNOWN',
    details: { template },
    hints: ['use one of: application, identity_provider, hris'],
  });
}
