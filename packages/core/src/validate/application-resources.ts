/** Resource rules of the application template: sibling keys, id consistency per type, reference paths. */
import type { Resource } from '../schemas/application.js';
import type { CheckContext } from './context.js';
import { fold, NameIndex } from './names.js';
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

  /** Checks `resources` at the context's current path (a `resources` or `sub_resources` array). */
  walk(resources: readonly Resource[], parents: readonly string[][], ctx: CheckContext): void {
    const siblings = new NameIndex('resource');
    const path = ctx.path;
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i]!;
      path.push(i);
      const hasId = r.id !== undefined && r.id !== null;
      siblings.add(hasId ? r.id! : r.name, i, ctx, hasId ? 'id' : 'name', r.operation);
      this.checkIdUse(r, hasId, ctx);
      if (!this.incremental && r.operation) ctx.error('is only allowed when incremental_change is true', 'operation');
      checkCustomProperties(r.custom_properties, this.propertyDefs(r.resource_type), `resource type ${JSON.stringify(r.resource_type)}`, ctx);
      const names = hasId ? [fold(r.id!), fold(r.name)] : [fold(r.name)];
      const mine: string[][] = [];
      for (const prefix of parents.length ? parents : [[]]) {
        for (const n of names) {
          const full = [...prefix, n];
          this.paths.add(full.join('.'));
          mine.push(full);
        }
      }
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
