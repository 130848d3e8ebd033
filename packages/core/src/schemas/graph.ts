/** Tag requests and node queries on the access graph. */
import * as z from 'zod';
import { tagSchema } from './common.js';
import { PERMISSION_TYPES, permissionTypeSchema } from './application.js';
import { opt } from './primitives.js';

/** Body of `POST /api/v1/graph/nodes/svc_tags`. */
export const tagRequestSchema = z.strictObject({
  node_id: z.string().min(1).max(256),
  tags: z.array(tagSchema).min(1).max(100, { error: 'must hold at most 100 tags' }),
});
export type TagRequest = z.infer<typeof tagRequestSchema>;

/** Body of `POST /api/v1/graph/svc_tags:remove`. */
export const tagRemoveRequestSchema = z.strictObject({
  node_id: z.string().min(1).max(256),
  tag_key: tagSchema.shape.key,
});
export type TagRemoveRequest = z.infer<typeof tagRemoveRequestSchema>;

/** Query types of a node query (the spec's seen values; see the emulator docs for their meaning). */
export const NODE_QUERY_TYPES = ['SOURCE_TO_DESTINATION', 'DESTINATION_NODES'] as const;
export type NodeQueryType = (typeof NODE_QUERY_TYPES)[number];

/** Comparison functions of a condition spec. */
export const CONDITION_FNS = [
  'EQ',
  'NOT_EQ',
  'CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'GT',
  'GTE',
  'LT',
  'LTE',
] as const;
export type ConditionFn = (typeof CONDITION_FNS)[number];

/** Bounds of a node query request: past any of them the request is a 400 naming the field. */
export const NODE_QUERY_LIMITS = {
  /** Entries of `source_node_types.nodes` or `destination_node_types.nodes`. */
  nodeTypes: 20,
  /** Condition specs of one node type entry. */
  specs: 20,
  /** UTF-8 bytes of a node type, node id, property name or string value. */
  stringBytes: 256,
  /** Largest `page_size`. */
  pageSize: 100,
} as const;

const queryString = () =>
  z
    .string()
    .min(1)
    .refine((v) => Buffer.byteLength(v, 'utf8') <= NODE_QUERY_LIMITS.stringBytes, {
      error: `must be at most ${NODE_QUERY_LIMITS.stringBytes} bytes`,
    });

/** One condition: `property` compared with `value` by `fn`. */
export const conditionSpecSchema = z.strictObject({
  fn: z.enum(CONDITION_FNS),
  property: queryString(),
  value: z.union([
    z.string().refine((v) => Buffer.byteLength(v, 'utf8') <= NODE_QUERY_LIMITS.stringBytes, {
      error: `must be at most ${NODE_QUERY_LIMITS.stringBytes} bytes`,
    }),
    z.number(),
    z.boolean(),
  ]),
});
export type ConditionSpec = z.infer<typeof conditionSpecSchema>;

/** One node type of a selector, optionally one node of it, optionally with conditions (all must hold). */
export const nodeTypeSelectorSchema = z.strictObject({
  node_type: queryString(),
  node_id: opt(queryString()),
  condition_expression: opt(
    z.strictObject({
      specs: opt(
        z
          .array(conditionSpecSchema)
          .max(NODE_QUERY_LIMITS.specs, { error: `must hold at most ${NODE_QUERY_LIMITS.specs} specs` }),
      ),
    }),
  ),
});

const nodeSelector = z.strictObject({
  nodes: z.array(nodeTypeSelectorSchema).max(NODE_QUERY_LIMITS.nodeTypes, {
    error: `must hold at most ${NODE_QUERY_LIMITS.nodeTypes} node types`,
  }),
});

/**
 * `canonical_permissions` of a node query: keep only relations where the source holds any (`OR`,
 * the default) or all (`AND`) of `values` on the destination.
 */
export const canonicalPermissionsSchema = z.strictObject({
  values: z.array(permissionTypeSchema).min(1).max(PERMISSION_TYPES.length),
  operator: opt(z.enum(['OR', 'AND'])),
});
export type CanonicalPermissionsFilter = z.infer<typeof canonicalPermissionsSchema>;

/** Body of `POST /api/v1/assessments/query_spec:nodes`. */
export const nodeQueryRequestSchema = z.strictObject({
  query_type: opt(z.enum(NODE_QUERY_TYPES)),
  include_nodes: opt(z.boolean()),
  source_node_types: opt(nodeSelector),
  destination_node_types: opt(nodeSelector),
  no_relation: opt(z.boolean()),
  canonical_permissions: opt(canonicalPermissionsSchema),
});
export type NodeQueryRequest = z.infer<typeof nodeQueryRequestSchema>;

export const nodeSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  properties: z.record(z.string(), z.unknown()),
  destination_node_count: opt(z.number()),
  permissions: opt(z.array(z.string())),
});
export type GraphNode = z.infer<typeof nodeSchema>;

/** Result of a node query. */
export const nodeQueryResultSchema = z.looseObject({
  values: z.array(nodeSchema),
  next_page_token: opt(z.string()),
  has_more: opt(z.boolean()),
});
export type NodeQueryResult = z.infer<typeof nodeQueryResultSchema>;
