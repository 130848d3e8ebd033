/**
 * Shares one string (or one parsed value) among the rows that repeat it. An HR export repeats most
 * of its values (statuses, departments, titles, dates), and a million employees are held in memory
 * until the payload is built, so sharing saves hundreds of megabytes and garbage collection time.
 */

/** Distinct values a column may have before sharing is given up for it (it is then mostly unique). */
const DEFAULT_LIMIT = 20_000;

export class Interner<T = string> {
  private values: Map<string, T> | undefined = new Map();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** The value stored for `text`, or undefined. */
  get(text: string): T | undefined {
    return this.values?.get(text);
  }

  /** Stores `value` for `text` (until the limit is reached) and returns it. */
  set(text: string, value: T): T {
    const values = this.values;
    if (values) {
      if (values.size < this.limit) values.set(text, value);
      // Mostly unique values: stop paying for the lookups and free the table.
      else this.values = undefined;
    }
    return value;
  }

  /** `text` itself, shared with earlier equal texts. */
  intern(this: Interner<string>, text: string): string {
    return this.get(text) ?? this.set(text, text);
  }
}
