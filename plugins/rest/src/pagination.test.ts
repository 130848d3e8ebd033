/**
 * Each kind of pagination against a real HTTP source: the records a stream reads, the requests it
 * makes to read them, and the errors of paging that would not end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readAll, serve, userManifest, type Source } from './private-test-helpers/source.js';
import { linkTargets } from './engine/streams.js';

const PEOPLE = Array.from({ length: 7 }, (_, i) => ({ name: `p${i + 1}` }));
const names = (records: unknown[]) => records.map((r) => (r as { name: string }).name);

let source: Source | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

function stream(pagination: string, records = 'items', extra = ''): string {
  return `  items:
    path: /people
    pagination:
${pagination
  .trim()
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
    records: ${records}
${extra}`;
}

describe('offset pagination', () => {
  it('reads until the total, the next offset after the records actually returned (a server that caps the page)', async () => {
    source = await serve((req) => {
      const start = Number(req.query['startIndex']);
      const count = Math.min(Number(req.query['count']), 2); // the server caps pages at 2
      return { json: { total: PEOPLE.length, items: PEOPLE.slice(start - 1, start - 1 + count) } };
    });
    const text = userManifest(
      stream(`type: offset
offset_param: startIndex
limit_param: count
limit: 5
start: 1
total: total`),
    );
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query)).toEqual([
      { startIndex: '1', count: '5' },
      { startIndex: '3', count: '5' },
      { startIndex: '5', count: '5' },
      { startIndex: '7', count: '5' },
    ]);
  });

  it('without a total, stops at a page shorter than the limit', async () => {
    source = await serve((req) => {
      const offset = Number(req.query['offset']);
      return { json: { items: PEOPLE.slice(offset, offset + Number(req.query['limit'])) } };
    });
    const text = userManifest(stream(`type: offset\noffset_param: offset\nlimit_param: limit\nlimit: 3`));
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query['offset'])).toEqual(['0', '3', '6']);
  });

  it('takes the limit from a var, and stops at an empty page', async () => {
    source = await serve((req) => {
      const offset = Number(req.query['offset']);
      return { json: { items: PEOPLE.slice(offset, offset + 4) } };
    });
    const text = userManifest(
      stream(`type: offset\noffset_param: offset\nlimit_param: limit\nlimit: '{{ vars.size }}'`),
    ).replace(
      '  url: { description: the source URL }',
      '  url: { description: the source URL }\n  size: { description: page size, type: integer }',
    );
    expect(names(await readAll(text, 'items', { url: source.url, size: 4 }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query)).toEqual([
      { offset: '0', limit: '4' },
      { offset: '4', limit: '4' },
    ]);
  });

  it('refuses a source that answers every offset with the same page', async () => {
    source = await serve(() => ({ json: { items: PEOPLE.slice(0, 2) } }));
    const text = userManifest(stream(`type: offset\noffset_param: offset\nlimit_param: limit\nlimit: 2`));
    await expect(readAll(text, 'items', { url: source.url })).rejects.toMatchObject({
      code: 'REST_PAGING_BROKEN',
      message: expect.stringContaining('the source seems to ignore offset'),
    });
    expect(source.requests).toHaveLength(2);
  });
});

describe('page pagination', () => {
  it('reads pages until total_pages', async () => {
    source = await serve((req) => {
      const page = Number(req.query['page']);
      const size = Number(req.query['per_page']);
      return {
        json: { pages: Math.ceil(PEOPLE.length / size), items: PEOPLE.slice((page - 1) * size, page * size) },
      };
    });
    const text = userManifest(
      stream(`type: page\npage_param: page\nsize_param: per_page\nsize: 3\ntotal_pages: pages`),
    );
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query)).toEqual([
      { page: '1', per_page: '3' },
      { page: '2', per_page: '3' },
      { page: '3', per_page: '3' },
    ]);
  });

  it('without total_pages or size, stops at an empty page; the first page number is start', async () => {
    source = await serve((req) => ({
      json: PEOPLE.slice(Number(req.query['p']) * 4, Number(req.query['p']) * 4 + 4),
    }));
    const text = userManifest(stream(`type: page\npage_param: p\nstart: 0`, '$'));
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query['p'])).toEqual(['0', '1', '2']);
  });
});

describe('cursor pagination', () => {
  const pages = [PEOPLE.slice(0, 3), PEOPLE.slice(3, 6), PEOPLE.slice(6)];

  it('sends the cursor of the body in a parameter until there is none', async () => {
    source = await serve((req) => {
      const i = req.query['cursor'] === undefined ? 0 : Number(req.query['cursor'].slice(1));
      return { json: { data: pages[i], meta: { next: i + 1 < pages.length ? `c${i + 1}` : null } } };
    });
    const text = userManifest(stream(`type: cursor\nnext: meta.next\nparam: cursor`, 'data'));
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query['cursor'])).toEqual([undefined, 'c1', 'c2']);
  });

  it('reads the cursor from a header', async () => {
    source = await serve((req) => {
      const i = Number(req.query['after'] ?? '0');
      return { json: pages[i], headers: i + 1 < pages.length ? { 'x-next-cursor': String(i + 1) } : {} };
    });
    const text = userManifest(stream(`type: cursor\nheader: X-Next-Cursor\nparam: after`, '$'));
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests).toHaveLength(3);
  });

  it('follows a next-page URL of the body, relative to the page it came with', async () => {
    source = await serve((req) => {
      const i = Number(req.query['page'] ?? '0');
      return { json: { items: pages[i], next: i + 1 < pages.length ? `people?page=${i + 1}` : '' } };
    });
    const text = userManifest(stream(`type: cursor\nnext: next`));
    expect(names(await readAll(text, 'items', { url: `${source.url}` }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => `${r.path}?${new URLSearchParams(r.query).toString()}`)).toEqual([
      '/people?',
      '/people?page=1',
      '/people?page=2',
    ]);
  });

  it('refuses a cursor that comes back', async () => {
    source = await serve(() => ({ json: { items: pages[0], next: 'same' } }));
    const text = userManifest(stream(`type: cursor\nnext: next\nparam: c`));
    await expect(readAll(text, 'items', { url: source.url })).rejects.toMatchObject({
      code: 'REST_PAGING_BROKEN',
      message: expect.stringContaining('came back again'),
    });
  });
});

describe('Link header pagination (RFC 8288)', () => {
  it('follows rel="next" until the last page', async () => {
    source = await serve((req) => {
      const i = Number(req.query['page'] ?? '1');
      const links = [`<${'/people?page=1'}>; rel="first"`];
      if (i < 3)
        links.push(
          `<http://127.0.0.1:${req.headers['host']?.toString().split(':')[1]}/people?page=${i + 1}>; rel="next last"`,
        );
      return { json: PEOPLE.slice((i - 1) * 3, i * 3), headers: { link: links.join(', ') } };
    });
    const text = userManifest(stream('type: link', '$'));
    expect(names(await readAll(text, 'items', { url: source.url }))).toEqual(names(PEOPLE));
    expect(source.requests.map((r) => r.query['page'])).toEqual([undefined, '2', '3']);
  });

  it('parses several links, quoted and bare parameters, and resolves relative targets', () => {
    const base = new URL('https://api.example.com/v1/items?page=2');
    const header =
      '</v1/items?page=1>; rel=prev, <items?page=3>; title="a, b"; rel="next", <https://other.example/x>; rel=last';
    expect(linkTargets(header, 'next', base).map(String)).toEqual([
      'https://api.example.com/v1/items?page=3',
    ]);
    expect(linkTargets(header, 'prev', base).map(String)).toEqual([
      'https://api.example.com/v1/items?page=1',
    ]);
    expect(linkTargets(null, 'next', base)).toEqual([]);
  });
});

describe('no pagination, records and guards', () => {
  it('makes one request; an object the selector finds is one record', async () => {
    source = await serve(() => ({ json: { user: { name: 'solo', api_key: 'k-123' } } }));
    const text = userManifest(stream('type: none', 'user', '    drop: [api_key]'));
    expect(await readAll(text, 'items', { url: source.url })).toEqual([{ name: 'solo' }]);
    expect(source.requests).toHaveLength(1);
  });

  it('stops at max_pages', async () => {
    source = await serve((req) => ({
      json: {
        items: [{ name: `n${req.query['page'] ?? ''}` }],
        next: `/people?page=${Number(req.query['page'] ?? 0) + 1}`,
      },
    }));
    const text = userManifest(stream('type: cursor\nnext: next', 'items', '    max_pages: 4'));
    await expect(readAll(text, 'items', { url: source.url })).rejects.toMatchObject({
      code: 'REST_PAGING_BROKEN',
      message: 'stream items: read more than max_pages (4) pages',
    });
    expect(source.requests).toHaveLength(4);
  });

  it('names the URL, without its query, when an answer is not JSON', async () => {
    source = await serve(() => ({ text: '<html>login</html>' }));
    const text = userManifest(stream('type: none'));
    await expect(readAll(text, 'items', { url: source.url })).rejects.toMatchObject({
      code: 'REST_BAD_RESPONSE',
      message: `GET ${source.url}/people (stream items) answered with a body that is not JSON: "<html>login</html>"`,
    });
  });
});
