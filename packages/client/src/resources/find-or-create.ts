/**
 * Find-or-create by name, holding when another process creates the same name at the same moment
 * (two runs of one config, two CLIs): both find nothing, both create, and the service refuses the
 * second with a 400 naming the `name` field. That refusal means the name now exists, so it is looked
 * up again and reused.
 */
import { ServiceError } from '../errors.js';

/** Whether the service refused a create because of its `name` (taken, as far as a create by name goes). */
function refusedName(error: unknown): boolean {
  return (
    error instanceof ServiceError && error.status === 400 && error.violations.some((v) => v.field === 'name')
  );
}

/**
 * `find()`, else `create()`; a create refused over its name falls back to `find()` once more, and
 * fails with the refusal when that still finds nothing (the name was not allowed, not taken).
 */
export async function findOrCreateByName<T>(
  find: () => Promise<T | undefined>,
  create: () => Promise<T>,
): Promise<{ value: T; created: boolean }> {
  const found = await find();
  if (found !== undefined) return { value: found, created: false };
  try {
    return { value: await create(), created: true };
  } catch (error) {
    if (!refusedName(error)) throw error;
    const winner = await find();
    if (winner === undefined) throw error;
    return { value: winner, created: false };
  }
}
