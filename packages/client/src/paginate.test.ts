import { describe, expect, it } from 'vitest';
import { paginate } from './paginate.js';
import type { Page } from './types.js';

/** Serves fixed pages keyed by token, recording the tokens asked for. */
function pages(list: Record<string, Page<number>>): {
  asked: (string | undefined)[];
  fetch: (t: string | undefined) => Promise<Page<number>>;
} {
  const asked: (string | undefined)[] = [];
  return {
    asked,
    fetch: (token) => {
      asked.push(token);
      const page = list[token ?? ''];
      if (page === undefined) throw new Error(`unexpected token ${token}`);
      return Promise.resolve(page);
    },
  };
}

describe('paginate', () => {
  it('goes on past an empty page while has_more is true, and stops at has_more false despite a token', async () => {
    const p = pages({
      '': { values: [1, 2], next_page_token: 'a', has_more: true },
      a: { values: [], next_page_token: 'b', has_more: true },
      b: { values: [3], next_page_token: 'c', has_more: false },
    });
    expect(await paginate(p.fetch).toArray()).toEqual([1, 2, 3]);
    expect(p.asked).toEqual([undefined, 'a', 'b']);
  });

  it('treats a missing has_more as the end and null values as empty', async () => {
    const p = pages({ '': { values: null, next_page_token: 'x' } });
    expect(await paginate(p.fetch).toArray()).toEqual([]);
  });

  it('refuses to loop when more results are promised without a new token', async () => {
    const p = pages({ '': { values: [1], next_page_token: '', has_more: true } });
    await expect(paginate(p.fetch).toArray()).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});
