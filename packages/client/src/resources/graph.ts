import type { AccessExplanation, NodeQueryRequest, PermissionType, Tag } from '@oaakit/core';
import type { Api } from '../api.js';
import { buildQuery } from '../filter.js';
import { paginate } from '../paginate.js';
import type { Paginated } from '../paginate.js';
import type { Page } from '../types.js';
import type { CallOptions } from './list-options.js';

/** One value of a node query result. */
export interface NodeQueryValue {
  /** The node id, also the id tags are applied to. */
  id: string;
  /** The node type, e.g. `OAA.wiki.User`. */
  type: string;
  /** Node properties (custom ones as `customprop_<name>`) and `tags`. */
  properties: Record<string, unknown>;
  /** How many nodes on the other side of the query the node relates to. */
  destination_node_count?: number | null;
  /** Canonical permission types held across those relations. */
  permissions?: PermissionType[] | null;
}

/** Options of a node query. */
export interface NodeQueryOptions extends CallOptions {
  /** Results per page, at most 100 (the service's limit). */
  pageSize?: number;
}

/** Tags and node queries on the access graph: `/api/v1/graph/...` and `/api/v1/assessments/query_spec:nodes`. */
export interface GraphApi {
  /**
   * Applies tags to a node (the `id` of a node query result). Applying a key again sets its value.
   *
   * @example
   * await client.graph.addTags({ nodeId, tags: [{ key: 'owner', value: 'team-a' }] });
   */
  addTags(input: { nodeId: string; tags: Tag[] } & CallOptions): Promise<void>;
  /** Removes tag `key` from a node: the only way a tag goes (a new push never removes one). */
  removeTag(input: { nodeId: string; key: string } & CallOptions): Promise<void>;
  /**
   * Runs a node query; iterate it for values across pages (only `has_more` decides whether another
   * page is fetched), or use `pages()` to see each page.
   *
   * @example
   * for await (const user of client.graph.queryNodes({
   *   query_type: 'SOURCE_TO_DESTINATION',
   *   source_node_types: { nodes: [{ node_type: 'OAA.wiki.User' }] },
   *   destination_node_types: { nodes: [{ node_type: 'OAA.wiki.space.Resource' }] },
   *   canonical_permissions: { values: ['DataWrite'] },
   * })) console.log(user.properties.name, user.permissions);
   */
  queryNodes(request: NodeQueryRequest, options?: NodeQueryOptions): Paginated<NodeQueryValue>;
  /**
   * What an identity (a node id, or a name, email or identity) reaches, with which canonical
   * permissions, and the path through groups, linked accounts and roles. Emulator only: it calls
   * `POST /_emulator/access` (admin key), which the service does not have; there it fails with 404.
   */
  explainAccess(input: { identity: string } & CallOptions): Promise<AccessExplanation[]>;
}

/** Binds the graph resource to a request function. */
export function graphApi(api: Api): GraphApi {
  return {
    async addTags({ nodeId, tags, signal }) {
      await api.call({
        method: 'POST',
        path: '/api/v1/graph/nodes/svc_tags',
        body: { node_id: nodeId, tags },
        signal,
      });
    },
    async removeTag({ nodeId, key, signal }) {
      await api.call({
        method: 'POST',
        path: '/api/v1/graph/svc_tags:remove',
        body: { node_id: nodeId, tag_key: key },
        signal,
      });
    },
    async explainAccess({ identity, signal }) {
      const res = await api.call<{ values?: AccessExplanation[] }>({
        method: 'POST',
        path: '/_emulator/access',
        body: { identity },
        signal,
      });
      return res.values ?? [];
    },
    queryNodes(request, options = {}) {
      return paginate((token) =>
        api.call<Page<NodeQueryValue>>({
          method: 'POST',
          path: '/api/v1/assessments/query_spec:nodes',
          query: buildQuery({ page_size: options.pageSize, page_token: token }),
          body: request,
          signal: options.signal,
        }),
      );
    },
  };
}
