/** Resource rules of the application template: sibling keys, id consistency per type, reference paths. */
import type { Resource } from '../schemas/application.js';
import type { Collection } from './collections.js';
import type { CheckContext } from './context.js';
import { NameTable, sameName } from '../internal/name-table.js';
import { NameIndex } from './names.js';

const SMALL = 8;
import { checkCustomProperties, type PropertyDefinitions } from './properties.js';

/** The resources of one application, as references in identity_to_permissions may name them. */
export class ResourceIndex {
  /** Dot-paths of every resource, by key (id or name) and by name, compared without case. */
  private readonly paths = new NameTable<true>();
  /** Per resource type: whether its first resource had an id. */
  private readonly idUse = new NameTable<boolean>();

  constructor(
    private readonly propertyDefs: (resourceType: string) => PropertyDefinitions,
    private readonly incremental: boolean,
  ) {}

  /**
   * Checks `resources` at the context's current path (a `resources` or `sub_resources` array).
   * `prefixes` are the dot-paths of the parent (by key and by name).
   */
  walk(collection: Collection<Resource>, prefixes: readonly string[], ctx: CheckContext): void {
    // Most resources have a handful of sub-resources: compare those directly instead of indexing.
    const resources = Array.isArray(collection) ? (collection as readonly Resource[]) : undefined;
    const siblings = resources && resources.length <= SMALL ? undefined : new NameIndex('resource');
    const path = ctx.path;
    let i = 0;
    for (const r of collection) {
      path.push(i);
      const hasId = r.id !== undefined && r.id !== null;
      const key = hasId ? r.id! : r.name;
      if (siblings) siblings.add(key, i, ctx, hasId ? 'id' : 'name', r.operation);
      else if (resources) {
        for (let j = 0; j < i; j++) {
          const other = resources[j]!;
          if (sameName(other.id ?? other.name, key)) {
            ctx.error(
              `duplicate resource ${JSON.stringify(key)}: names and ids compare without case; the first is at index ${j}`,
              hasId ? 'id' : 'name',
            );
            break;
          }
        }
      }
      this.checkIdUse(r, hasId, ctx);
      if (!this.incremental && r.operation)
        ctx.error('is only allowed when incremental_change is true', 'operation');
      if (r.custom_properties) {
        checkCustomProperties(
          r.custom_properties,
          this.propertyDefs(r.resource_type),
          `resource type ${JSON.stringify(r.resource_type)}`,
          ctx,
        );
      }
      const mine: string[] = [];
      for (const name of hasId ? [r.name, r.id!] : [r.name]) {
        if (prefixes.length === 0) mine.push(name);
        else for (const p of prefixes) mine.push(`${p}.${name}`);
      }
      for (const p of mine) this.paths.insert(p, true);
      if (r.sub_resources) {
        path.push('sub_resources');
        this.walk(r.sub_resources, mine, ctx);
        path.pop();
      }
      path.pop();
      i++;
    }
  }

  private checkIdUse(r: Resource, hasId: boolean, ctx: CheckContext): void {
    const type = r.resource_type;
    const found = this.idUse.find(type);
    const firstHadId = found === -1 ? undefined : this.idUse.valueAt(found);
    if (firstHadId === undefined) {
      this.idUse.insert(type, hasId);
    } else if (firstHadId !== hasId) {
      ctx.error(
        `resources of type ${JSON.stringify(r.resource_type)} must either all have an id or none: ` +
          `this one ${hasId ? 'has' : 'lacks'} an id, the first of its type ${firstHadId ? 'has' : 'lacks'} one`,
        'id',
      );
    }
  }

  /** Whether `ref` (a key or name, sub-resources joined with `.`) names a resource. */
  has(ref: string): boolean {
    return this.paths.find(ref) !== -1;
  }
}
