/** `key=value` arguments of `oaa tags add` (a bare `key` is a tag without a value). */
import { OaaError, type Tag } from '@oaakit/core';

/** Parses `key=value` words into tags; the service checks the key and value rules. */
export function parseTags(words: readonly string[]): Tag[] {
  if (words.length === 0)
    throw new OaaError('no tags given', {
      code: 'USAGE',
      hints: ['example: oaa tags add NODE_ID owner=team_a reviewed'],
    });
  return words.map((w) => {
    const at = w.indexOf('=');
    const key = at < 0 ? w : w.slice(0, at);
    if (key === '')
      throw new OaaError(`tag ${JSON.stringify(w)} has no key`, {
        code: 'USAGE',
        hints: ['write key=value or key'],
      });
    return at < 0 ? { key } : { key, value: w.slice(at + 1) };
  });
}
