/**
 * Managers' ids from their DNs, without holding every user: the users stream out page by page, and
 * a user's `manager` names a DN that may come in a later page. Each manager DN is read once with a
 * base-scoped search (with the user filter, so that only a user the payload holds is named) and
 * kept in a bounded cache; most users share their manager with many others, so a cache of a few
 * thousand DNs answers nearly every lookup.
 */
import type { Client } from 'ldapts';
import { isUnder, normalizeDn } from './dn.js';
import type { DirectoryFlavor } from './flavor.js';
import { readEntry } from './search.js';

/** Manager DNs remembered (their ids, or that they name no user). */
export const MANAGER_CACHE_SIZE = 10_000;
/** Lookups in flight at once. */
const CONCURRENCY = 8;

/** What the lookups found, for the log. */
export interface ManagerStats {
  /** Base-scoped reads made. */
  lookups: number;
  /** Manager values that named no user of the read (no such entry, filtered out, another server). */
  unresolved: number;
  /** Manager values outside baseDn, not looked up. */
  outside: number;
  /** A few of the unresolved and outside values, for the log. */
  examples: string[];
}

export class ManagerIds {
  /** Normalised DN -> the manager's id, or null when it names no user of the read. */
  private readonly cache = new Map<string, string | null>();
  readonly stats: ManagerStats = { lookups: 0, unresolved: 0, outside: 0, examples: [] };

  constructor(
    private readonly client: Client,
    private readonly flavor: DirectoryFlavor,
    private readonly base: string,
    private readonly userFilter: string,
    private readonly limit = MANAGER_CACHE_SIZE,
  ) {}

  private remember(key: string, id: string | null): void {
    if (this.cache.size >= this.limit) {
      // The oldest entry goes (a Map iterates in insertion order; hits are moved to the end).
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, id);
  }

  private note(dn: string): void {
    if (this.stats.examples.length < 5) this.stats.examples.push(dn);
  }

  private async lookup(dn: string, key: string): Promise<void> {
    this.stats.lookups++;
    const entry = await readEntry(
      this.client,
      dn,
      this.userFilter,
      this.flavor.userAttributes,
      this.flavor.binaryAttributes,
    );
    this.remember(key, entry === undefined ? null : this.flavor.toUser(entry).id);
  }

  /** Looks up the DNs of `dns` that are not cached yet (a page's managers), a few at a time. */
  async prepare(dns: readonly string[]): Promise<void> {
    const todo = new Map<string, string>();
    for (const dn of dns) {
      const key = normalizeDn(dn);
      if (this.cache.has(key) || todo.has(key) || !isUnder(key, this.base)) continue;
      todo.set(key, dn);
    }
    const queue = [...todo];
    const worker = async (): Promise<void> => {
      for (let next = queue.pop(); next !== undefined; next = queue.pop())
        await this.lookup(next[1], next[0]);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  }

  /** The id of the user `dn` names, when `prepare` found one; counts and notes the others. */
  get(dn: string): string | undefined {
    const key = normalizeDn(dn);
    if (!isUnder(key, this.base)) {
      this.stats.outside++;
      this.note(dn);
      return undefined;
    }
    const id = this.cache.get(key);
    if (id === undefined) {
      // Pushed out of the cache by the page's own lookups: only with more managers per page than it holds.
      throw new Error(`manager ${dn} was not looked up before it was asked for`);
    }
    // A hit moves to the end: the least recently used entry is the first to go.
    this.cache.delete(key);
    this.cache.set(key, id);
    if (id === null) {
      this.stats.unresolved++;
      this.note(dn);
      return undefined;
    }
    return id;
  }
}
