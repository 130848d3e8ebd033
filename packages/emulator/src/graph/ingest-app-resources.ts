/** Resources and sub-resources of an application, to any depth. */
import type { Resource } from '@oaakit/core';
import type { AppScope, ResourceEntry } from './app-scope.js';
import { connectionTypeWarning } from './connection-types.js';
import type { Owned } from './ingest-app-owners.js';
import { entityProperties, fold } from './properties.js';
import type { GraphWriter } from './writer.js';

const SKIP = new Set(['sub_resources', 'connections']);

/**
 * Writes `resources` under `parent` (read once: they may be spooled). `parentPaths` are the
 * dot-paths of the parent (each level may be named by id or name), so every path a grant may use
 * finds the resource. Each resource and its owners go to `owned`; its type to `app.resourceTypes`.
 */
export function writeResources(
  w: GraphWriter,
  app: AppScope,
  resources: Iterable<Resource>,
  parent: { rid: number; key: string; paths: string[]; depth: number },
  warnings: string[],
  owned: Owned[],
): ResourceEntry[] {
  const entries: ResourceEntry[] = [];
  for (const r of resources) {
    app.resourceTypes.add(r.resource_type);
    const ownKey = fold(r.id ?? r.name);
    const key = `${parent.key}\u0000${ownKey}`;
    const names = r.id == null ? [ownKey] : [ownKey, fold(r.name)];
    const paths =
      parent.paths.length === 0 ? names : parent.paths.flatMap((p) => names.map((n) => `${p}.${n}`));
    if (app.resources.has(paths[0]!)) {
      warnings.push(
        `resource ${JSON.stringify(paths[0])} of application ${JSON.stringify(app.name)} appears twice; the second is ignored`,
      );
      continue;
    }
    const rid = w.node({
      kind: 'resource',
      key: `${fold(app.name)}/${key}`,
      type: `OAA.${app.type}.${r.resource_type}.${parent.depth === 0 ? 'Resource' : 'SubResource'}`,
      name: r.name,
      parent: parent.rid,
      properties: entityProperties(r, SKIP),
      tags: r.tags,
    });
    if (r.owners?.length) owned.push([rid, r.owners]);
    for (const c of r.connections ?? []) {
      w.edge(rid, undefined, 'CONNECTED_TO', { ref: `${c.node_type}:${c.id}` });
      // One warning per unknown node type and application: a payload may hold millions of them.
      if (!app.connectionTypes.has(c.node_type)) {
        app.connectionTypes.add(c.node_type);
        const warning = connectionTypeWarning(c.node_type, r.name, app.name);
        if (warning !== undefined) warnings.push(warning);
      }
    }
    const entry: ResourceEntry = { rid, type: fold(r.resource_type), subs: [] };
    for (const p of paths) app.resources.set(p, entry);
    if (r.sub_resources?.length) {
      entry.subs = writeResources(
        w,
        app,
        r.sub_resources,
        { rid, key, paths, depth: parent.depth + 1 },
        warnings,
        owned,
      );
    }
    entries.push(entry);
  }
  return entries;
}
