/**
 * Refuses an application payload whose `sub_resources` nest deeper than `MAX_RESOURCE_DEPTH`,
 * before validation follows them by recursion and runs out of stack (which answered 500). The walk
 * keeps its own stack, so it handles any depth.
 */
import type { Violation } from '@oaakit/core';
import { MAX_RESOURCE_DEPTH } from './limits.js';
import { isSpooled } from './read-payload.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Depth of the deepest `sub_resources` chain below `resource` (0 without sub-resources). */
function depthBelow(resource: Obj): number {
  let deepest = 0;
  const stack: [unknown, number][] = listOf(resource.sub_resources).map((r) => [r, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!isObj(node)) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_RESOURCE_DEPTH) return deepest;
    for (const sub of listOf(node.sub_resources)) stack.push([sub, depth + 1]);
  }
  return deepest;
}

/**
 * Brackets a resource at `sub_resources` depth d sits in, inside its top-level array: its own
 * object and, per level above it, a resource object and a `sub_resources` array.
 */
const bracketsAt = (d: number): number => 2 * d + 1;

/**
 * An application's resources: an array, or the collection the ingest spooled them to. A spooled
 * one whose brackets nest too little to hold a sub-resource past the limit is not read at all.
 */
const resourcesOf = (v: unknown): Iterable<unknown> => {
  if (isSpooled(v)) return v.depth < bracketsAt(MAX_RESOURCE_DEPTH + 1) ? [] : v;
  return Array.isArray(v) ? (v as unknown[]) : [];
};

/**
 * A violation naming the first top-level resource whose sub-resources nest too deep, if any.
 * Spooled resources are read through for it (one batch at a time) only when they might.
 */
export function resourceDepthViolation(payload: Obj): Violation | undefined {
  for (const [a, app] of listOf(payload.applications).entries()) {
    if (!isObj(app)) continue;
    let r = 0;
    for (const resource of resourcesOf(app.resources)) {
      if (isObj(resource) && depthBelow(resource) > MAX_RESOURCE_DEPTH) {
        return {
          field: `applications[${a}].resources[${r}]`,
          description: `sub_resources nest more than ${MAX_RESOURCE_DEPTH} levels deep, the most the emulator validates`,
        };
      }
      r++;
    }
  }
  return undefined;
}
