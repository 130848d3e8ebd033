import { ValidationError, type Violation } from '../errors.js';
import { templateSpec, type KindSpec } from './entity-kinds.js';
import type { Template } from '../schemas/templates.js';
import {
  displayKey,
  forEachEntity,
  indexCollection,
  keyFieldOf,
  keyOf,
  missingKeyDescription,
} from './entity-key.js';
import { isHeaderField, isOwnField } from './entity-parts.js';
import { operationOf, OperationLog } from './entry-checks.js';
import { joinPath, type JsonObject } from './json.js';
import { throwIfViolations } from './problems.js';
import { addTags, removeTags } from './tags.js';

/** Problems of the current payload (its own data) and of the incremental payload. */
interface Reports {
  readonly current: Violation[];
  readonly incremental: Violation[];
}

/** Paths of one collection: in the current payload, and of its entries in the incremental payload. */
interface Paths {
  readonly current: string;
  readonly entries: string;
}

function isEmptyList(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** An added entity as stored: without `operation`, nested entities checked and stripped the same way. */
function addedEntity(spec: KindSpec, entry: JsonObject, path: string, reports: Reports): JsonObject {
  const out: JsonObject = {};
  for (const [field, value] of Object.entries(entry)) if (field !== 'operation') out[field] = value;
  for (const { field, spec: child } of spec.children) {
    if (isEmptyList(entry[field])) continue;
    const childPath = joinPath(path, field);
    const nested = indexCollection(child, entry[field], childPath, reports.incremental);
    out[field] = [...nested.values()].map(({ entity, index }) => {
      const op = entity.operation;
      if (op !== undefined && op !== null && op !== 'add') {
        reports.incremental.push({
          field: `${childPath}[${index}].operation`,
          description: `a ${child.label} inside an added ${spec.label} is added with it and takes no operation of its own (found ${JSON.stringify(op)})`,
        });
      }
      return addedEntity(child, entity, `${childPath}[${index}]`, reports);
    });
  }
  return out;
}

/** Applies the entries nested in `entry` to the nested collections of `entity` (copied into `out`). */
function applyChildren(
  spec: KindSpec,
  out: JsonObject,
  entry: JsonObject,
  paths: Paths,
  reports: Reports,
): JsonObject {
  for (const { field, spec: child } of spec.children) {
    const entries = entry[field];
    if (isEmptyList(entries)) continue;
    const childPaths = { current: joinPath(paths.current, field), entries: joinPath(paths.entries, field) };
    out[field] = applyCollection(child, out[field], entries, childPaths, reports);
  }
  return out;
}

/** `modify`: set the fields the entry names, clear those it sets to null, add the tags it carries. */
function modifiedEntity(
  spec: KindSpec,
  entity: JsonObject,
  entry: JsonObject,
  paths: Paths,
  reports: Reports,
): JsonObject {
  const out: JsonObject = { ...entity };
  for (const [field, value] of Object.entries(entry)) {
    if (!isOwnField(spec, field)) continue;
    if (value === null || value === undefined) delete out[field];
    else out[field] = field === 'tags' ? addTags(entity.tags, value) : value;
  }
  return applyChildren(spec, out, entry, paths, reports);
}

function tagsOf(entry: JsonObject, path: string, reports: Reports): unknown[] | undefined {
  const tags = entry.tags;
  if (Array.isArray(tags) && tags.length > 0) return tags as unknown[];
  const description = `operation '${String(entry.operation)}' needs a non-empty tags list`;
  reports.incremental.push({ field: joinPath(path, 'tags'), description });
  return undefined;
}

function missing(op: string, name: string, label: string): string {
  if (op === 'none') {
    return `${name} does not exist; an entry without operation only carries changes to the entities nested in an existing ${label}`;
  }
  if (op === 'modify') return `cannot modify ${name}: it does not exist; use operation 'add' to create it`;
  return `cannot ${op === 'delete' ? 'delete' : `${op} on`} ${name}: it does not exist`;
}

/** Applies the incremental entries of one collection to its current entities. */
function applyCollection(
  spec: KindSpec,
  current: unknown,
  entries: unknown,
  paths: Paths,
  reports: Reports,
): JsonObject[] {
  // items[i] is the entity at result position i; origin[i] its index in the current list, or
  // -1 - n for the n-th incremental entry, so that paths are built only when a report needs one.
  const items: (JsonObject | undefined)[] = [];
  const origin: number[] = [];
  const position = new Map<string, number>();
  for (const { entity, key, index } of indexCollection(
    spec,
    current,
    paths.current,
    reports.current,
  ).values()) {
    position.set(key, items.length);
    items.push(entity);
    origin.push(index);
  }
  const pathOf = (at: number): string => {
    const from = origin[at] ?? 0;
    return from >= 0 ? `${paths.current}[${from}]` : `${paths.entries}[${-1 - from}]`;
  };
  const log = new OperationLog();
  forEachEntity(entries, paths.entries, reports.incremental, (entry, index) => {
    const path = `${paths.entries}[${index}]`;
    const opPath = `${path}.operation`;
    const op = operationOf(spec, entry, opPath, reports.incremental);
    if (op === undefined) return;
    const key = keyOf(spec, entry);
    if (key === undefined) {
      reports.incremental.push({
        field: joinPath(path, keyFieldOf(spec)),
        description: missingKeyDescription(spec),
      });
      return;
    }
    const name = `${spec.label} '${displayKey(spec, key)}'`;
    const clash = log.record(key, op, path, name);
    if (clash !== undefined) {
      reports.incremental.push({ field: opPath, description: clash });
      return;
    }
    const at = position.get(key);
    const entity = at === undefined ? undefined : items[at];
    if (op === 'add') {
      if (entity !== undefined) {
        const description = `cannot add ${name}: it already exists; use operation 'modify' to change it`;
        reports.incremental.push({ field: opPath, description });
        return;
      }
      position.set(key, items.length);
      items.push(addedEntity(spec, entry, path, reports));
      origin.push(-1 - index);
      return;
    }
    if (at === undefined || entity === undefined) {
      reports.incremental.push({ field: opPath, description: missing(op, name, spec.label) });
      return;
    }
    const entityPaths = { current: pathOf(at), entries: path };
    switch (op) {
      case 'modify':
        items[at] = modifiedEntity(spec, entity, entry, entityPaths, reports);
        break;
      case 'none':
        items[at] = applyChildren(spec, { ...entity }, entry, entityPaths, reports);
        break;
      case 'delete':
        items[at] = undefined;
        position.delete(key);
        break;
      case 'add_tag':
      case 'remove_tag': {
        const tags = tagsOf(entry, path, reports);
        if (tags === undefined) break;
        items[at] = {
          ...entity,
          tags: op === 'add_tag' ? addTags(entity.tags, tags) : removeTags(entity.tags, tags),
        };
        break;
      }
    }
  });
  const result: JsonObject[] = [];
  for (const item of items) if (item !== undefined) result.push(item);
  return result;
}

/**
 * Applies an incremental payload to the full payload it updates and returns the new full payload,
 * following the conventions documented in `diff/operations.ts`. This is how the emulator
 * processes an incremental push, so the payload is checked: `add` of an existing object, `modify`,
 * `delete` or a tag operation on a missing one, `add` and `modify` of one object, an operation
 * repeated on one object, an unknown or missing `operation`, and `incremental_change` not `true`
 * are reported, all of them, in one `ValidationError` whose violations point at the offending
 * field (e.g. `applications[0].local_users[2].operation`). The `hris` template takes no
 * incremental payloads. Existing entities keep their order; added ones come last.
 *
 * `before` is not modified; unchanged entities are shared with the result, not copied.
 *
 * @example
 * stored = applyIncremental('application', stored, pushed); // ValidationError -> 400 with field_violations
 */
export function applyIncremental(
  template: Template,
  before: JsonObject,
  incremental: JsonObject,
): JsonObject {
  const spec = templateSpec(template);
  if (!spec.incremental) {
    const description = `incremental updates are not supported for the ${template} template; push the full payload`;
    throw new ValidationError(
      `the incremental payload cannot be applied: the ${template} template takes full payloads only`,
      [{ field: 'incremental_change', description }],
    );
  }
  const reports: Reports = { current: [], incremental: [] };
  if (incremental.incremental_change !== true) {
    reports.incremental.push({
      field: 'incremental_change',
      description: 'must be true in an incremental payload',
    });
  }
  const out: JsonObject = {};
  for (const [field, value] of Object.entries(before)) {
    if (isHeaderField(spec, field) || field === 'incremental_change') out[field] = value;
  }
  for (const [field, value] of Object.entries(incremental)) {
    if (!isHeaderField(spec, field)) continue;
    if (value === null || value === undefined) delete out[field];
    else out[field] = value;
  }
  for (const { field, spec: kind } of spec.collections) {
    const paths = { current: field, entries: field };
    const entities = applyCollection(kind, before[field], incremental[field], paths, reports);
    if (entities.length > 0 || field in before) out[field] = entities;
  }
  throwIfViolations(reports.current, 'the current payload', 'updated');
  throwIfViolations(reports.incremental, 'the incremental payload', 'applied');
  return out;
}
