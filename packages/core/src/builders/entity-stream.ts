/**
 * A collection of entities that are produced when the payload is read rather than held in memory:
 * the builder's way to take a million users from a generator. Validation reads it once and the
 * serializer reads it once, so a source should be re-iterable (an array, or an object whose
 * `[Symbol.iterator]()` starts over each time). A one-shot generator can be read only once, and a
 * second read throws instead of silently yielding nothing.
 */
import { OaaError } from '../errors.js';

export class EntityStream<T> implements Iterable<T> {
  private readonly parts: { source: Iterable<T>; oneShot: boolean; read: boolean }[] = [];

  /** @param eager entities added one by one; they come first. */
  constructor(
    readonly eager: T[],
    private readonly kind: string,
  ) {}

  /** Appends a source of entities. */
  add(source: Iterable<T>): void {
    if (Array.isArray(source)) {
      this.parts.push({ source, oneShot: false, read: false });
      return;
    }
    const iterator = source[Symbol.iterator]();
    this.parts.push({ source, oneShot: (iterator as unknown) === source, read: false });
  }

  [Symbol.iterator](): Iterator<T> {
    // A plain iterator rather than a generator delegating to each source: a million users pass here.
    const parts = this.parts;
    let current: Iterator<T> = this.eager[Symbol.iterator]();
    let next = 0;
    const open = (): boolean => {
      if (next >= parts.length) return false;
      const part = parts[next++]!;
      if (part.oneShot && part.read) {
        throw new OaaError(`a one-shot source of ${this.kind} was read twice: its entities are gone`, {
          code: 'STREAM_CONSUMED',
          hints: [
            'pass an array or a re-iterable object, e.g. { *[Symbol.iterator]() { ... } }, when the payload is validated and then pushed',
          ],
        });
      }
      part.read = true;
      current = part.source[Symbol.iterator]();
      return true;
    };
    return {
      next(): IteratorResult<T> {
        for (;;) {
          const r = current.next();
          if (r.done !== true) return r;
          if (!open()) return r;
        }
      },
      return(value?: unknown): IteratorResult<T> {
        current.return?.(value);
        return { done: true, value: value as T };
      },
    };
  }
}
