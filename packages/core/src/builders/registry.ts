/** A case-insensitive keyed collection for builders: duplicates are refused where they are added. */
import { OaaError } from '../errors.js';
import { NameTable } from '../internal/name-table.js';

/** The error of a builder refusing a second entity with the same key (`scope` as in `Registry`). */
export function duplicateEntity(kind: string, key: string, scope: string): OaaError {
  return new OaaError(
    `duplicate ${kind} ${JSON.stringify(key)}${scope}: names and ids compare without case`,
    {
      code: 'DUPLICATE_ENTITY',
      details: { kind, key },
      hints: [`give each ${kind} a distinct name or unique id`],
    },
  );
}

export class Registry<T> {
  private readonly byKey = new NameTable<T>();

  /** @param scope where the items live, for messages (` in application "x"`); a function is called only for a message. */
  constructor(
    private readonly kind: string,
    private readonly scope: string | (() => string) = '',
  ) {}

  private where(): string {
    return typeof this.scope === 'string' ? this.scope : this.scope();
  }

  /** Adds `item` under `key` (and an alias, e.g. a name beside a unique id); throws `DUPLICATE_ENTITY` if `key` is taken. */
  add(key: string, item: T, alias?: string | null): T {
    if (this.byKey.insert(key, item) !== -1) throw duplicateEntity(this.kind, key, this.where());
    if (alias) this.byKey.insert(alias, item);
    return item;
  }

  /** The item named `key` (any case), or undefined. */
  find(key: string): T | undefined {
    const i = this.byKey.find(key);
    return i === -1 ? undefined : this.byKey.valueAt(i);
  }

  /** Every item added, in order (aliases excluded). */
  all(): T[] {
    const out = new Set<T>();
    for (let i = 0; i < this.byKey.size; i++) out.add(this.byKey.valueAt(i));
    return [...out];
  }

  /** Releases the index (the builder is done with it). */
  clear(): void {
    this.byKey.clear();
  }

  /**
   * The item named `key`; throws `UNKNOWN_REFERENCE` when there is none, naming the referencing
   * entity (`fromKind` `fromName`). The message is built only on failure: this is a hot path.
   */
  get(key: string, fromKind: string, fromName: string): T {
    const i = this.byKey.find(key);
    if (i === -1) {
      throw new OaaError(
        `${fromKind} ${JSON.stringify(fromName)} references ${this.kind} ${JSON.stringify(key)}${this.where()}, which has not been added`,
        {
          code: 'UNKNOWN_REFERENCE',
          details: { kind: this.kind, key },
          hints: [`add the ${this.kind} before referencing it`],
        },
      );
    }
    return this.byKey.valueAt(i);
  }
}
