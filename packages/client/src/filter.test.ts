import { describe, expect, it } from 'vitest';
import { buildQuery, filterExpression, formEncode, quoteFilterValue } from './filter.js';

describe('filter encoding', () => {
  it('writes name eq "value" with spaces as + and never %2B for a space', () => {
    const q = buildQuery({ filter: filterExpression({ name: 'My App' }) });
    expect(q).toBe('filter=name+eq+%22My+App%22');
    expect(q).not.toContain('%2B');
    expect(q).not.toContain('%20');
  });

  it('escapes quotes and backslashes inside the quoted value', () => {
    expect(quoteFilterValue('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    const q = buildQuery({ filter: filterExpression({ name: 'say "hi"' }) });
    expect(decodeURIComponent(q.replace(/\+/g, ' '))).toBe('filter=name eq "say \\"hi\\""');
  });

  it('keeps a literal plus distinct from a space', () => {
    expect(formEncode('a+b c')).toBe('a%2Bb+c');
  });

  it('joins name and state with and, and leaves out unset parameters', () => {
    expect(filterExpression({ name: 'x', state: 'ENABLED' })).toBe('name eq "x" and state eq "ENABLED"');
    expect(buildQuery({ filter: undefined, order_by: 'state', page_size: 5, page_token: '' })).toBe(
      'order_by=state&page_size=5',
    );
  });
});
