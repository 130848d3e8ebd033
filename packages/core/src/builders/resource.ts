/** Builder of one resource and its sub-resources. */
import { copyEntity } from '../internal/copy-entity.js';
import { sameName } from '../internal/name-table.js';
import type { Resource } from '../schemas/application.js';
import { duplicateEntity, Registry } from './registry.js';

export type ResourceInput = Omit<Resource, 'sub_resources'>;

/** Up to this many sub-resources are searched in the payload's own list; more get an index. */
const SMALL = 8;

/**
 * Wraps a resource of the payload; sub-resources are added through it. Applications have hundreds
 * of thousands of resources, so a builder holds nothing of its own: sub-resources are found in the
 * payload's `sub_resources` list (indexed, in `indexes`, only when it grows long), and a builder is
 * made again whenever one is asked for.
 */
export class ResourceBuilder {
  /**
   * @param resource the payload object, filled in place.
   * @param indexes the indexes of long sub-resource lists, shared by every builder of one application.
   */
  constructor(
    readonly resource: Resource,
    private readonly parent: ResourceBuilder | undefined,
    private readonly indexes: WeakMap<Resource, Registry<Resource>>,
  ) {}

  /** The resource's dot-path of keys (ids, else names), as references name sub-resources. */
  get path(): string {
    const key = this.resource.id ?? this.resource.name;
    return this.parent ? `${this.parent.path}.${key}` : key;
  }

  /** Adds a sub-resource; its key is its `id` when given, else its `name`. */
  addSubResource(input: ResourceInput): ResourceBuilder {
    const key = input.id ?? input.name;
    const list = (this.resource.sub_resources ??= []);
    const resource: Resource = copyEntity(input);
    let index = this.indexes.get(this.resource);
    if (!index && list.length >= SMALL) {
      index = new Registry<Resource>('sub-resource', () => this.scope());
      for (const r of list) index.add(r.id ?? r.name, r, r.id ? r.name : undefined);
      this.indexes.set(this.resource, index);
    }
    if (index) index.add(key, resource, input.id ? input.name : undefined);
    else if (list.some((r) => sameName(r.id ?? r.name, key)))
      throw duplicateEntity('sub-resource', key, this.scope());
    list.push(resource);
    return new ResourceBuilder(resource, this, this.indexes);
  }

  /** The sub-resource named `key` (id or name, any case), if added. */
  subResource(key: string): ResourceBuilder | undefined {
    const list = this.resource.sub_resources;
    if (!list) return undefined;
    const index = this.indexes.get(this.resource);
    const found = index
      ? index.find(key)
      : (list.find((r) => sameName(r.id ?? r.name, key)) ?? list.find((r) => r.id && sameName(r.name, key)));
    return found ? new ResourceBuilder(found, this, this.indexes) : undefined;
  }

  private scope(): string {
    return ` under resource ${JSON.stringify(this.path)}`;
  }
}
