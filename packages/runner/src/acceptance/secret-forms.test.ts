import { describe, expect, it } from 'vitest';
import { ByteSearch, findForm, hideSecrets, searchableSecrets, secretForms } from './secret-forms.js';

const TOKEN = 's3cr3t/Tok+en=42';

describe('secret forms', () => {
  it('finds the value as it is, URL-encoded, JSON-escaped, base64 and base64url', () => {
    const forms = secretForms('token', TOKEN);
    const found = (text: string) => findForm(text, forms)?.form;
    expect(found(`token is ${TOKEN}!`)).toBe('as is');
    expect(found(`https://x.example/?t=${encodeURIComponent(TOKEN)}`)).toBe('URL-encoded');
    expect(found(`header ${Buffer.from(TOKEN).toString('base64')}`)).toBe('base64');
    expect(found(Buffer.from(TOKEN).toString('base64url'))).toBe('base64url');
    const quoted = secretForms('q', 'pa"ss\\word');
    expect(findForm(JSON.stringify({ p: 'pa"ss\\word' }), quoted)?.form).toBe('JSON-escaped');
    expect(found('nothing to see')).toBeUndefined();
  });

  it('finds the value base64-encoded inside a longer value, wherever it starts', () => {
    const forms = secretForms('token', TOKEN);
    for (const user of ['a', 'ab', 'abc', 'user']) {
      const header = `Basic ${Buffer.from(`${user}:${TOKEN}`).toString('base64')}`;
      expect(findForm(header, forms)?.form, header).toBe('base64');
      const url = Buffer.from(`${user}:${TOKEN}`).toString('base64url');
      expect(findForm(url, forms)?.form, url).toMatch(/^base64/);
    }
  });

  it('leaves out secrets shorter than 4 characters, which would match anywhere', () => {
    const { forms, tooShort } = searchableSecrets({ pin: '123', token: TOKEN });
    expect(tooShort).toEqual(['pin']);
    expect(new Set(forms.map((f) => f.secret))).toEqual(new Set(['token']));
  });

  it('hides every form in a text', () => {
    const forms = secretForms('token', TOKEN);
    const text = `${TOKEN} ${encodeURIComponent(TOKEN)} ${Buffer.from(TOKEN).toString('base64')}`;
    expect(hideSecrets(text, forms)).toBe('[secret] [secret] [secret]');
  });

  it('searches bytes across chunk boundaries and gives the offset of the first hit', () => {
    const forms = secretForms('token', TOKEN);
    const text = Buffer.from(`{"name":"x","note":"${TOKEN}"}`);
    const at = text.indexOf(TOKEN);
    for (let cut = 1; cut < text.length; cut++) {
      const search = new ByteSearch(forms);
      search.push(text.subarray(0, cut));
      search.push(text.subarray(cut));
      expect(
        search.hits.map((h) => [h.form.form, h.offset]),
        `cut at ${cut}`,
      ).toEqual([['as is', at]]);
    }
  });
});
