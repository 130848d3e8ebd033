/** Resource rules of the application template: sibling keys, id consistency per type, reference paths. */
import type { Resource } from '../schemas/application.js';
import type { CheckContext } from './context.js';
import { sameName } from '../internal/name-table.js';
import { fold, NameIndex } from './names.js';

const SMALL = 8;
import { checkCustomProperties, type PropertyDefinitions } from './properties.js';

/** The resources of one application, as references in identity_to_permissions may name them. */
export class ResourceIndex {
  /** Folded dot-paths of every resource, by key (id or name) and by name. */
  readonly paths = new Set<string>();
  /** Per resource type: whether its first resource had an id. */
  private readonly idUse = new Map<string, boolean>();

  constructor(
    private readonly propertyDefs: (resourceType: string) => PropertyDefinitions,
    private readonly incremental: boolean,
  ) {}

  /**
   * Checks `resources` at the context's current path (a `resources` or `sub_resources` array).
   * `prefixes` are the folded dot-paths of the parent (by key and by name).
   */
  walk(resources: readonly Resource[], prefixes: readonly string[], ctx: CheckContext): void {
    // Most resources have a handful of sub-resources: compare those directly instead of indexing.
    const siblings = resources.length > SMALL ? new NameIndex('resource') : undefined;
    const path = ctx.path;
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i]!;
      path.push(i);
      const hasId = r.id !== undefined && r.id !== null;
      const key = hasId ? r.id! : r.name;
      if (siblings) siblings.add(key, i, ctx, hasId ? 'id' : 'name', r.operation);
      else {
        for (let j = 0; j < i; j++) {
          const other = resources[j]!;
          if (sameName(other.id ?? other.name, key)) {
            ctx.error(`duplicate resource ${JSON.stringify(key)}: names and ids compare without case; the first is at index ${j}`, hasId ? 'id' : 'name');
            break;
          }
        }
      }
      this.checkIdUse(r, hasId, ctx);
      if (!this.incremental && r.operation) ctx.error('is only allowed when incremental_change is true', 'operation');
      if (r.custom_properties) {
        checkCustomProperties(r.custom_properties, this.propertyDefs(r.resource_type), `resource type ${JSON.stringify(r.resource_type)}`, ctx);
      }
      const name = fold(r.name);
      const mine = prefixes.length === 0 ? [name] : prefixes.map((p) => `${p}.${name}`);
      if (hasId) {
        const id = fold(r.id!);
        for (const p of prefixes.length === 0 ? [id] : prefixes.map((q) => `${q}.${id}`)) mine.push(p);
      }
      for (const p of mine) this.paths.add(p);
      if (r.sub_resources?.length) {
        path.push('sub_resources');
        this.walk(r.sub_resources, mine, ctx);
        path.pop();
      }
      path.pop();
    }
  }

  private checkIdUse(r: Resource, hasId: boolean, ctx: CheckContext): void {
    const type = fold(r.resource_type);
    const firstHadId = this.idUse.get(type);
    if (firstHadId === undefined) {
      this.idUse.set(type, hasId);
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
    return this.paths.has(fold(ref));
  }
}
