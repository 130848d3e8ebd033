/**
 * Tags on graph nodes: `POST /api/v1/graph/nodes/svc_tags` applies tags, `POST
 * /api/v1/graph/svc_tags:remove` removes one key, on the node ids node queries return. Both answer
 * `{}` (the spec does not show the response). A request that fails (a bad body, an unknown node) is
 * answered with its error and recorded as a `TAGGING_REQUEST_FAILED` event.
 */
import { tagRemoveRequestSchema, tagRequestSchema } from '@oaakit/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { recordEvent } from '../store/events.js';
import { addTags, findTaggableNode, MAX_TAGS_PER_NODE, removeTag, tagCount } from '../store/tags.js';

function nodeIdOf(body: unknown): string | null {
  const id = (body as { node_id?: unknown } | null)?.node_id;
  return typeof id === 'string' && id.length <= 256 ? id : null;
}

/** Runs a tagging request; on failure records the event, then answers the error. */
function tagging(
  ctx: EmulatorContext,
  req: FastifyRequest,
  action: 'add' | 'remove',
  run: () => void,
): Record<string, never> {
  try {
    run();
    return {};
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const nodeId = nodeIdOf(req.body);
    const node = nodeId === null ? undefined : findTaggableNode(ctx.db, nodeId);
    recordEvent(ctx.db, {
      timestamp: ctx.clock.iso(),
      category: 'TAG',
      severity: 'ERROR',
      name: 'Tagging request failed',
      message: `Request to ${action} tags on node ${nodeId ?? '(none)'} failed: ${err.message}`,
      provider_id: node?.provider_id ?? null,
      entity: 'TAG',
      entity_id: nodeId,
      entity_name: node?.name ?? null,
      event_type: 'TAGGING_REQUEST_FAILED',
      error: {
        message: err.message,
        metadata: Object.fromEntries(
          err.violations.map((v, i) => [String(i), `${v.field}: ${v.description}`]),
        ),
        reason: err.reason,
        resolution: err.resolution,
        request_id: req.id,
      },
    });
    throw err;
  }
}

function requireNode(ctx: EmulatorContext, nodeId: string): void {
  if (!findTaggableNode(ctx.db, nodeId)) throw notFound('node', nodeId);
}

/** Registers the two tag routes. */
export function registerTagRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/api/v1/graph/nodes/svc_tags', allow(ANY_KEY), (req) =>
    tagging(ctx, req, 'add', () => {
      const body = parseBody(tagRequestSchema, req.body);
      requireNode(ctx, body.node_id);
      if (tagCount(ctx.db, body.node_id) + body.tags.length > MAX_TAGS_PER_NODE)
        throw badField(
          'tags',
          `node ${body.node_id} would hold more than ${MAX_TAGS_PER_NODE} tags; remove some first`,
        );
      addTags(ctx.db, body.node_id, body.tags);
    }),
  );
  app.post('/api/v1/graph/svc_tags::remove', allow(ANY_KEY), (req) =>
    tagging(ctx, req, 'remove', () => {
      const body = parseBody(tagRemoveRequestSchema, req.body);
      requireNode(ctx, body.node_id);
      removeTag(ctx.db, body.node_id, body.tag_key);
    }),
  );
}
