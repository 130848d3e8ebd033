import { OaaError } from '@oaakit/core';
import type { Page } from './types.js';

/** Fetches one page; `pageToken` is undefined for the first. */
export type FetchPage<T> = (pageToken: string | undefined) => Promise<Page<T>>;

/**
 * The results of a list call: iterate it for items across all pages, or use `pages()` / `toArray()`.
 * Nothing is fetched until iteration starts, and every iteration starts from the first page.
 *
 * @example
 * for await (const provider of client.providers.list({ filter: { state: 'ENABLED' } })) console.log(provider.name);
 */
export interface Paginated<T> extends AsyncIterable<T> {
  /** Every page in order, empty pages included. */
  pages(): AsyncIterable<Page<T>>;
  /** Every item of every page. */
  toArray(): Promise<T[]>;
}

/**
 * Walks pages while `has_more` is true. Only `has_more` decides: a page may be empty while more
 * exist, and a token may be non-empty at the end.
 */
export function paginate<T>(fetchPage: FetchPage<T>): Paginated<T> {
  async function* pages(): AsyncGenerator<Page<T>> {
    let token: string | undefined;
    for (;;) {
      const page = await fetchPage(token);
      yield page;
      if (page.has_more !== true) return;
      const next = page.next_page_token ?? '';
      if (next === '' || next === token) {
        throw new OaaError('the service said more results exist but gave no new page token', {
          code: 'BAD_RESPONSE',
          details: { pageToken: next },
        });
      }
      token = next;
    }
  }
  async function* items(): AsyncGenerator<T> {
    for await (const page of pages()) yield* page.values ?? [];
  }
  return {
    [Symbol.asyncIterator]: () => items(),
    pages,
    async toArray() {
      const out: T[] = [];
      for await (const item of items()) out.push(item);
      return out;
    },
  };
}
