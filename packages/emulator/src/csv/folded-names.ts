/**
 * Names kept once each, compared case-insensitively, in the spelling and order first seen. A CSV
 * can name the same user's groups or roles on many rows: past a few names a set of folded keys keeps
 * each addition constant-time, so 100,000 rows cannot make the build quadratic; below that a scan
 * costs less memory than a set per user.
 */
const SCAN_AT_MOST = 8;

export class FoldedNames {
  private readonly names: string[] = [];
  private keys: Set<string> | undefined;

  /** Adds the names not present yet. */
  add(names: Iterable<string>): void {
    for (const name of names) {
      const key = name.toLowerCase();
      if (this.has(key)) continue;
      this.names.push(name);
      this.keys?.add(key);
      if (this.keys === undefined && this.names.length > SCAN_AT_MOST)
        this.keys = new Set(this.names.map((n) => n.toLowerCase()));
    }
  }

  private has(key: string): boolean {
    if (this.keys !== undefined) return this.keys.has(key);
    return this.names.some((n) => n.toLowerCase() === key);
  }

  /** The names, in the order first added (a copy). */
  list(): string[] {
    return [...this.names];
  }

  get size(): number {
    return this.names.length;
  }
}
