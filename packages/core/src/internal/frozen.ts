/**
 * Whether a value can never change: payloads share such values between entities (the builders
 * freeze the grants identities share), so the serializer and the checker handle each once.
 */

const known = new WeakSet<object>();

/**
 * True when `v` is frozen, a plain object or an array, without getters or `toJSON`, and the same
 * holds for every object in it. Remembered once true (it cannot stop being true).
 */
export function isDeepFrozen(v: object): boolean {
  if (known.has(v)) return true;
  if (!Object.isFrozen(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return false;
  const descriptors = Object.getOwnPropertyDescriptors(v);
  for (const key in descriptors) {
    const d = descriptors[key]!;
    if (d.get !== undefined || d.set !== undefined || key === 'toJSON') return false;
    const x: unknown = d.value;
    if (typeof x === 'object' && x !== null && !isDeepFrozen(x)) return false;
  }
  known.add(v);
  return true;
}
