/** Resource rules of the application template: sibling keys, id consistency per type, reference paths. */
import type { Resource } from '../schemas/application.js';
import type { Collection } from './collections.js';
import type { CheckContext } from './context.js';
import { NameTable, sameName } from '../internal/name-table.js';
import { duplicateMessage, NameIndex } from './names.js';
import { checkCustomProperties, type PropertyDefinitions } from './properties.js';

/** Up to this many siblings are compared directly (most resources have a handful of sub-resources). */
const SMALL = 8;

/**
 * What the index keeps of a resource: the resource itself when its list is an array (it is held
 * anyway), else a copy of its names with its sub-resources' (a streamed list's resources, with their
 * descriptions and properties, can then be let go).
 */
interface Named {
  name: string;
  id?: string | null | undefined;
  sub_resources?: unknown;
}

/** The optional fields of a resource the walk reads. */
type Optional = Pick<Resource, 'id' | 'operation' | 'custom_properties' | 'sub_resources'>;

/** Filled by `present` each time, so reading them allocates nothing. */
const fields: Optional = {};

/**
 * The optional fields of `r`, found by enumerating its keys rather than by reading each: on Node
 * 20, reading a property an object lacks costs ~100 ns and a 32-byte handler in the old generation
 * when the object was made by spreading and then given another property (as the builder makes a
 * resource with sub-resources), so 100,000 such resources would cost 30 ms and a full collection.
 * The answer is valid until the next call.
 */
function present(r: Resource): Optional {
  fields.id = fields.operation = fields.custom_properties = fields.sub_resources = undefined;
  for (const key in r) {
    switch (key) {
      case 'id':
        fields.id = r.id;
        break;
      case 'operation':
        fields.operation = r.operation;
        break;
      case 'custom_properties':
        fields.custom_properties = r.custom_properties;
        break;
      case 'sub_resources':
        fields.sub_resources = r.sub_resources;
        break;
    }
  }
  return fields;
}

/** The index of one larger (or streamed) list of sibling resources. */
class Level {
  /** By key (id, else name): the sibling's position. */
  readonly keys = new NameIndex('resource');
  /** The other names siblings answer to: names beside ids, and repeated keys (an error, but still names). */
  others: NameTable<number[]> | undefined;

  constructor(readonly items: readonly Named[]) {}

  alsoAt(name: string, i: number): void {
    const others = (this.others ??= new NameTable<number[]>());
    const found = others.find(name);
    if (found === -1) others.insert(name, [i]);
    else others.valueAt(found).push(i);
  }
}

/**
 * The resources of one application, as references in identity_to_permissions may name them: a
 * resource by its id or name, a sub-resource as `parent.child` with either for each step. The
 * resource lists are indexed where they are, so no path string is built for a resource that no
 * reference names.
 */
export class ResourceIndex {
  /** Per resource type: whether its first resource had an id. */
  private readonly idUse = new NameTable<boolean>();
  /** `idUse` by the exact spellings met: a payload repeats a few types as written, once per resource. */
  private readonly idUseExact = new Map<string, boolean>();
  /** The index of every list that is not a short array (short ones are searched directly), by its `Named` list. */
  private readonly levels = new Map<readonly Named[], Level>();
  /** The sub-resources of resources held in an array whose own sub-resources were streamed (copied). */
  private copiedSubs: Map<Named, readonly Named[]> | undefined;
  private root: readonly Named[] = [];

  constructor(
    private readonly propertyDefs: (resourceType: string) => PropertyDefinitions,
    private readonly incremental: boolean,
  ) {}

  /** Checks the application's `resources` at the context's current path and indexes them. */
  walkRoot(collection: Collection<Resource>, ctx: CheckContext): void {
    this.root = this.walk(collection, ctx);
  }

  /** Checks and indexes one list of sibling resources; answers what the index keeps of it. */
  private walk(collection: Collection<Resource>, ctx: CheckContext): readonly Named[] {
    const resources = Array.isArray(collection) ? (collection as readonly Resource[]) : undefined;
    // A streamed list's resources are copied; an array is kept as it is.
    const copies: Named[] | undefined = resources ? undefined : [];
    const list: readonly Named[] = resources ?? copies!;
    let level: Level | undefined;
    if (!resources || resources.length > SMALL) {
      level = new Level(list);
      this.levels.set(list, level);
    }
    const path = ctx.path;
    // An array is read by index: iterating it through the protocol (the list may be either) would
    // allocate an iterator and a result per resource.
    const stream = resources ? undefined : collection[Symbol.iterator]();
    for (let i = 0; ; i++) {
      let r: Resource;
      if (resources) {
        if (i >= resources.length) break;
        r = resources[i]!;
      } else {
        const next = stream!.next();
        if (next.done === true) break;
        r = next.value;
      }
      path.push(i);
      const { id, operation, custom_properties: properties, sub_resources: subResources } = present(r);
      const hasId = id !== undefined && id !== null;
      const key = hasId ? id : r.name;
      let item: Named = r;
      if (copies) copies.push((item = { name: r.name, id, sub_resources: undefined }));
      if (level) {
        if (!level.keys.add(key, i, ctx, hasId ? 'id' : 'name', operation)) level.alsoAt(key, i);
        if (hasId) level.alsoAt(r.name, i);
      } else {
        for (let j = 0; j < i; j++) {
          const other = resources![j]!;
          if (sameName(other.id ?? other.name, key)) {
            ctx.error(duplicateMessage('resource', key, j), hasId ? 'id' : 'name');
            break;
          }
        }
      }
      this.checkIdUse(r, hasId, ctx);
      if (!this.incremental && operation)
        ctx.error('is only allowed when incremental_change is true', 'operation');
      if (properties) {
        checkCustomProperties(
          properties,
          this.propertyDefs(r.resource_type),
          `resource type ${JSON.stringify(r.resource_type)}`,
          ctx,
        );
      }
      if (subResources) {
        path.push('sub_resources');
        const subs = this.walk(subResources, ctx);
        if (copies) item.sub_resources = subs;
        else if (subs !== subResources) (this.copiedSubs ??= new Map()).set(r, subs);
        path.pop();
      }
      path.pop();
    }
    return list;
  }

  /** The sub-resources of `r` as the index keeps them. */
  private subsOf(r: Named): readonly Named[] | undefined {
    const copied = this.copiedSubs?.get(r);
    if (copied !== undefined) return copied;
    return Array.isArray(r.sub_resources) ? (r.sub_resources as Named[]) : undefined;
  }

  private checkIdUse(r: Resource, hasId: boolean, ctx: CheckContext): void {
    const type = r.resource_type;
    let firstHadId = this.idUseExact.get(type);
    if (firstHadId === undefined) {
      const found = this.idUse.find(type);
      firstHadId = found === -1 ? undefined : this.idUse.valueAt(found);
      if (this.idUseExact.size < 1024) this.idUseExact.set(type, firstHadId ?? hasId);
    }
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
    return this.resolve(this.root, ref);
  }

  /** Whether `ref` names a resource of `list`, or (split at a dot) a descendant of one. */
  private resolve(list: readonly Named[], ref: string): boolean {
    if (this.some(list, ref, () => true)) return true;
    // Names may contain dots themselves: try every split.
    for (let dot = ref.indexOf('.'); dot !== -1; dot = ref.indexOf('.', dot + 1)) {
      const rest = ref.slice(dot + 1);
      const found = this.some(list, ref.slice(0, dot), (r) => {
        const subs = this.subsOf(r);
        return subs ? this.resolve(subs, rest) : false;
      });
      if (found) return true;
    }
    return false;
  }

  /** Whether some resource of `list` named `name` (by id or name) satisfies `test`. */
  private some(list: readonly Named[], name: string, test: (r: Named) => boolean): boolean {
    const level = this.levels.get(list);
    if (!level) {
      for (const r of list)
        if ((sameName(r.name, name) || (r.id != null && sameName(r.id, name))) && test(r)) return true;
      return false;
    }
    const at = level.keys.get(name);
    if (at !== undefined && test(level.items[at]!)) return true;
    const other = level.others?.find(name) ?? -1;
    if (other !== -1) for (const i of level.others!.valueAt(other)) if (test(level.items[i]!)) return true;
    return false;
  }
}
