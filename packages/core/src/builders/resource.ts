/** Builder of one resource and its sub-resources. */
import type { Resource } from '../schemas/application.js';
import { Registry } from './registry.js';

export type ResourceInput = Omit<Resource, 'sub_resources'>;

/**
 * Wraps a resource of the payload; sub-resources are added through it. Applications have hundreds
 * of thousands of resources, most without sub-resources: the index of children is made on the
 * first one, and the dot-path (for messages) only when a message needs it.
 */
export class ResourceBuilder {
  private children: Registry<ResourceBuilder> | undefined;

  /** @param resource the payload object, filled in place. */
  constructor(
    readonly resource: Resource,
    private readonly parent: ResourceBuilder | undefined,
  ) {}

  /** The resource's dot-path of keys (ids, else names), as references name sub-resources. */
  get path(): string {
    const key = this.resource.id ?? this.resource.name;
    return this.parent ? `${this.parent.path}.${key}` : key;
  }

  /** Adds a sub-resource; its key is its `id` when given, else its `name`. */
  addSubResource(input: ResourceInput): ResourceBuilder {
    const resource: Resource = { ...input };
    const child = new ResourceBuilder(resource, this);
    this.children ??= new Registry('sub-resource', () => ` under resource ${JSON.stringify(this.path)}`);
    this.children.add(input.id ?? input.name, child, input.id ? input.name : undefined);
    (this.resource.sub_resources ??= []).push(resource);
    return child;
  }

  /** The sub-resource named `key` (id or name, any case), if added. */
  subResource(key: string): ResourceBuilder | undefined {
    return this.children?.find(key);
  }
}
