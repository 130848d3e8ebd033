/** Builder of one resource and its sub-resources. */
import type { Resource } from '../schemas/application.js';
import { Registry } from './registry.js';

export type ResourceInput = Omit<Resource, 'sub_resources'>;

/** Wraps a resource of the payload; sub-resources are added through it. */
export class ResourceBuilder {
  private readonly children: Registry<ResourceBuilder>;

  /** @param resource the payload object, filled in place. */
  constructor(
    readonly resource: Resource,
    readonly path: string,
  ) {
    this.children = new Registry('sub-resource', ` under resource ${JSON.stringify(path)}`);
  }

  /** Adds a sub-resource; its key is its `id` when given, else its `name`. */
  addSubResource(input: ResourceInput): ResourceBuilder {
    const resource: Resource = { ...input };
    const child = new ResourceBuilder(resource, `${this.path}.${input.id ?? input.name}`);
    this.children.add(input.id ?? input.name, child, input.id ? input.name : undefined);
    (this.resource.sub_resources ??= []).push(resource);
    return child;
  }

  /** The sub-resource named `key` (id or name, any case), if added. */
  subResource(key: string): ResourceBuilder | undefined {
    return this.children.find(key);
  }
}
