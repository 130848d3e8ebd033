/**
 * Tags as a set. The service keeps a node's tags as key/value pairs, so the order of a `tags` list
 * and repeated pairs carry no meaning, and a missing value equals the empty value.
 */

import { isJsonObject } from './json.js';

/** One tag with its value made explicit. */
export interface TagPair {
  key: string;
  value: string;
}

function tagValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function pairId(pair: TagPair): string {
  return JSON.stringify([pair.key, pair.value]);
}

/**
 * The tags of a `tags` field as a sorted list of distinct pairs, or `undefined` when the field is
 * not a list of tag objects (then it is compared as plain data).
 */
export function tagSet(tags: unknown): TagPair[] | undefined {
  if (tags === null || tags === undefined) return [];
  if (!Array.isArray(tags)) return undefined;
  const byId = new Map<string, TagPair>();
  for (const tag of tags) {
    if (!isJsonObject(tag) || typeof tag.key !== 'string') return undefined;
    const pair = { key: tag.key, value: tagValue(tag.value) };
    byId.set(pairId(pair), pair);
  }
  return [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pair]) => pair);
}

/** Canonical text of a tag set: equal for equal sets, whatever the list order. */
export function encodeTagSet(pairs: readonly TagPair[]): string {
  return `[${pairs.map((p) => `{"key":${JSON.stringify(p.key)},"value":${JSON.stringify(p.value)}}`).join(',')}]`;
}

/** Pairs of `after` missing from `before` (added) and pairs of `before` missing from `after` (removed). */
export function tagChanges(before: unknown, after: unknown): { added: TagPair[]; removed: TagPair[] } {
  const b = tagSet(before) ?? [];
  const a = tagSet(after) ?? [];
  const bIds = new Set(b.map(pairId));
  const aIds = new Set(a.map(pairId));
  return { added: a.filter((p) => !bIds.has(pairId(p))), removed: b.filter((p) => !aIds.has(pairId(p))) };
}

/** `existing` plus the tags of `added` it lacks (the `add_tag` operation, and tags sent with `modify`). */
export function addTags(existing: unknown, added: unknown): unknown[] {
  const current = Array.isArray(existing) ? [...(existing as unknown[])] : [];
  const have = new Set((tagSet(current) ?? []).map(pairId));
  for (const pair of tagSet(added) ?? []) {
    if (have.has(pairId(pair))) continue;
    have.add(pairId(pair));
    current.push({ key: pair.key, value: pair.value });
  }
  return current;
}

/**
 * `existing` without the tags that `removed` names (the `remove_tag` / `delete_tag` operation): a
 * removal with a value removes that pair, one without a value removes every value of the key.
 */
export function removeTags(existing: unknown, removed: unknown): unknown[] {
  if (!Array.isArray(existing)) return [];
  const rules = Array.isArray(removed) ? removed.filter(isJsonObject) : [];
  return (existing as unknown[]).filter((tag) => {
    if (!isJsonObject(tag)) return true;
    return !rules.some(
      (rule) =>
        rule.key === tag.key &&
        (rule.value === null || rule.value === undefined || tagValue(rule.value) === tagValue(tag.value)),
    );
  });
}
