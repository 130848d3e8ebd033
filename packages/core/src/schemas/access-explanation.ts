/**
 * Effective access explained: what an identity reaches, with which canonical permissions, and the
 * path through groups, linked accounts and roles that grants it. The answer of the emulator's
 * `POST /_emulator/access` (the service has no such endpoint), read by `oaa access`.
 */
import * as z from 'zod';
import { permissionTypeSchema } from './application.js';

/** How one node of a path follows from the node before it. */
export const ACCESS_RELATIONS = [
  'MEMBER_OF',
  'HAS_ACCESS_CRED',
  'LINKED_ACCOUNT',
  'HRIS_IDENTITY',
  'HAS_ROLE',
] as const;
export type AccessRelation = (typeof ACCESS_RELATIONS)[number];

const nodeLabel = {
  id: z.string(),
  type: z.string(),
  name: z.string().nullable(),
};

/** One step of a path: the relation, and the node it leads to. */
export const accessPathStepSchema = z.looseObject({ relation: z.enum(ACCESS_RELATIONS), ...nodeLabel });

/** One reason a permission is held. */
export const accessGrantSchema = z.looseObject({
  permission: z.looseObject(nodeLabel),
  canonical: z.array(permissionTypeSchema),
  /** From the source to the identity the grant was made to (empty: the source itself). */
  path: z.array(accessPathStepSchema),
  /** The role held, when the permission comes through one. */
  role: z.string().nullable(),
  /** The role nested in `role` that holds the permission. */
  nested_role: z.string().nullable(),
  /** Passed down from a parent resource (`apply_to_sub_resources`). */
  inherited: z.boolean(),
});

/** The effective access of one identity. */
export const accessExplanationSchema = z.looseObject({
  ...nodeLabel,
  /** Applications and resources the identity holds permissions on. */
  destinations: z.array(
    z.looseObject({
      ...nodeLabel,
      permissions: z.array(permissionTypeSchema),
      grants: z.array(accessGrantSchema),
    }),
  ),
  /** Groups and accounts the identity acts as, and roles it holds, with the path to each. */
  memberships: z.array(z.looseObject({ ...nodeLabel, path: z.array(accessPathStepSchema) })),
  /** True when more destinations exist than were listed. */
  truncated: z.boolean(),
});
export type AccessExplanation = z.infer<typeof accessExplanationSchema>;
export type AccessGrant = z.infer<typeof accessGrantSchema>;
export type AccessPathStep = z.infer<typeof accessPathStepSchema>;
