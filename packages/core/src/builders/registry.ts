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

/**
 * Items by key, plus the other names they answer to (a name beside an id). Aliases live apart from
 * keys, so an alias never makes a later key a duplicate, and two items may share a name.
 */
export class Registry<T> {
  private readonly byKey = new NameTable<T>();
  private aliases: NameTable<T> | undefined;

  /** @param scope where the items live, for messages (` in application "x"`); a function is called only for a message. */
  constructor(
    private readonly kind: string,
    private readonly scope: string | (() => string) = '',
  ) {}

  private where(): string {
    return typeof this.scope === 'string' ? this.scope : this.scope();
  }

  /**
   * Adds `item` under `key`, and under `aliases` (e.g. a name beside an id; the first item of an
   * alias keeps it); throws `DUPLICATE_ENTITY` if `key` is taken.
   */
  add(key: string, item: T, ...aliases: (string | null | undefined)[]): T {
    if (this.byKey.insert(key, item) !== -1) throw duplicateEntity(this.kind, key, this.where());
    for (const alias of aliases) if (alias) (this.aliases ??= new NameTable<T>()).insert(alias, item);
    return item;
  }

  /** The item named `key` (any case; keys before aliases), or undefined. */
  find(key: string): T | undefined {
    const i = this.byKey.find(key);
    if (i !== -1) return this.byKey.valueAt(i);
    const j = this.aliases?.find(key) ?? -1;
    return j === -1 ? undefined : this.aliases!.valueAt(j);
  }

  /** Every item added, in order. */
  all(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.byKey.size; i++) out.push(this.byKey.valueAt(i));
    return out;
  }

  /** Releases the index (the builder is done with it). */
  clear(): void {
    this.byKey.clear();
    this.aliases = undefined;
  }

  /**
   * The item named `key`; throws `UNKNOWN_REFERENCE` when there is none, naming the referencing
   * entity (`fromKind` `fromName`). The message is built only on failure: this is a hot path.
   */
  get(key: string, fromKind: string, fromName: string): T {
    const found = this.find(key);
    if (found === undefined) {
      throw new OaaError(
        `${fromKind} ${JSON.stringify(fromName)} references ${this.kind} ${JSON.stringify(key)}${this.where()}, which has not been added`,
        {
          code: 'UNKNOWN_REFERENCE',
          details: { kind: this.kind, key },
          hints: [`add the ${this.kind} before referencing it`],
        },
      );
    }
    return found;
  }
}
