/**
 * Owners of an application's entities (the vendor SDK's `owners`): one `OWNS` edge from the owner to
 * the owned node. An owner is usually an identity-provider user of another data source, so its end
 * is outside this graph: the source is null and `ref` holds the case-folded `external_id`, which is
 * the identity key an identity-provider user registers (as for `HAS_IDENTITY`). An owner whose
 * `owner_type` is this application's own `OAA.<type>.User`, `.Group`, `.Role` or `.AccessCred` and
 * whose `external_id` names one of them is linked to that node. The edge carries `owner_type` and
 * `primary`.
 */
import type { Owner } from '@oaakit/core';
import type { AppScope } from './app-scope.js';
import { fold } from './properties.js';
import type { GraphWriter } from './writer.js';

/** An owned node and its owners, written once every local entity is known. */
export type Owned = [rid: number, owners: readonly Owner[] | null | undefined];

function localOwner(app: AppScope, owner: Owner): number | undefined {
  const prefix = fold(`OAA.${app.type}.`);
  const type = fold(owner.owner_type);
  if (!type.startsWith(prefix)) return undefined;
  switch (type.slice(prefix.length)) {
    case 'user':
      return app.users.get(owner.external_id);
    case 'group':
      return app.groups.get(owner.external_id);
    case 'role':
      return app.roles.get(owner.external_id)?.rid;
    case 'accesscred':
      return app.creds.get(owner.external_id);
    default:
      return undefined;
  }
}

/** Writes the `OWNS` edges of every owned node. */
export function writeOwners(w: GraphWriter, app: AppScope, owned: readonly Owned[]): void {
  for (const [rid, owners] of owned) {
    for (const o of owners ?? []) {
      const props = { owner_type: o.owner_type, primary: o.primary === true };
      const src = localOwner(app, o);
      if (src === undefined) w.edge(undefined, rid, 'OWNS', { ref: fold(o.external_id), props });
      else w.edge(src, rid, 'OWNS', { props });
    }
  }
}
