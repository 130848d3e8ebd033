/** For fuzz tests: the places in a JSON value where another value could stand. */

/** One place: a key of an object or an index of an array. */
export type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Every place in `value` where another value could stand, depth first. */
export function slots(value: unknown, out: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push({ parent: value, key: i });
      slots(v, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push({ parent: value as Record<string, unknown>, key: k });
      slots(v, out);
    }
  }
  return out;
}

/** `value` with the value at place number `pick` (modulo the number of places) replaced; changes `value`. */
export function replaceAt(value: unknown, pick: number, replacement: unknown): unknown {
  const all = slots(value);
  if (all.length === 0) return replacement;
  const slot = all[pick % all.length]!;
  (slot.parent as Record<string | number, unknown>)[slot.key] = replacement;
  return value;
}
