/** Tag requests and node queries on the access graph. */
import * as z from 'zod';
import { tagSchema } from './common.js';
import { opt } from './primitives.js';

/** Body of `POST /api/v1/graph/nodes/svc_tags`. */
export const tagRequestSchema = z.strictObject({
  node_id: z.string().min(1),
  tags: z.array(tagSchema).min(1),
});
export type TagRequest = z.infer<typeof tagRequestSchema>;

/** Body of `POST /api/v1/graph/svc_tags:remove`. */
export const tagRemoveRequestSchema = z.strictObject({
  node_id: z.string().min(1),
  tag_key: z.string().min(1),
});
export type TagRemoveRequest = z.infer<typeof tagRemoveRequestSchema>;

export const conditionSpecSchema = z.looseObject({
  fn: z.string(),
  property: z.string(),
  value: z.unknown(),
});

const nodeSelector = z.looseObject({
  nodes: z.array(
    z.looseObject({
      node_type: z.string(),
      node_id: opt(z.string()),
      condition_expression: opt(z.looseObject({ specs: opt(z.array(conditionSpecSchema)) })),
    }),
  ),
});

/** Body of `POST /api/v1/assessments/query_spec:nodes`. */
export const nodeQueryRequestSchema = z.looseObject({
  query_type: opt(z.string()),
  include_nodes: opt(z.boolean()),
  source_node_types: opt(nodeSelector),
  destination_node_types: opt(nodeSelector),
  no_relation: opt(z.boolean()),
  canonical_permissions: opt(z.record(z.string(), z.unknown())),
});
export type NodeQueryRequest = z.infer<typeof nodeQueryRequestSchema>;

export const nodeSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  properties: z.record(z.string(), z.unknown()),
  destination_node_count: opt(z.number()),
  permissions: opt(z.array(z.unknown())),
});
export type GraphNode = z.infer<typeof nodeSchema>;

/** Result of a node query. */
export const nodeQueryResultSchema = z.looseObject({
  values: z.array(nodeSchema),
  next_page_token: opt(z.string()),
  has_more: opt(z.boolean()),
});
export type NodeQueryResult = z.infer<typeof nodeQueryResultSchema>;
