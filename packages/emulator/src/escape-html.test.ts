/** The emulator's one HTML escape: what it writes, and that `unescapeHtml` gives back the text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, unescapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it('leaves no character that opens a tag, an entity or ends an attribute value', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(escapeHtml(text)).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|#39);)/);
      }),
    );
  });

  it('is undone by unescapeHtml, entity-like text included', () => {
    expect(unescapeHtml(escapeHtml('&lt; is written <'))).toBe('&lt; is written <');
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(unescapeHtml(escapeHtml(text))).toBe(text);
      }),
    );
  });
});
