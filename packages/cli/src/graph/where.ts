/**
 * `--where 'prop OP value'` of `oaa query nodes` into a node query condition spec. Operators:
 * `=` (EQ), `!=` (NOT_EQ), `~` or `contains` (CONTAINS), `^=` or `starts_with` (STARTS_WITH),
 * `$=` or `ends_with` (ENDS_WITH), `>`, `>=`, `<`, `<=`; the spec's names (`EQ`, `GTE`, ...) work too.
 * The value is a number, `true` or `false`, or text (quotes, single or double, keep it text:
 * `name = "42"`).
 */
import { CONDITION_FNS, OaaError, type ConditionFn, type ConditionSpec } from '@oaakit/core';

const SYMBOLS: Record<string, ConditionFn> = {
  '=': 'EQ',
  '==': 'EQ',
  '!=': 'NOT_EQ',
  '~': 'CONTAINS',
  '^=': 'STARTS_WITH',
  '$=': 'ENDS_WITH',
  '>': 'GT',
  '>=': 'GTE',
  '<': 'LT',
  '<=': 'LTE',
};

const WORDS: Record<string, ConditionFn> = {
  ...Object.fromEntries(CONDITION_FNS.map((f) => [f.toLowerCase(), f])),
  ne: 'NOT_EQ',
  contains: 'CONTAINS',
  starts_with: 'STARTS_WITH',
  ends_with: 'ENDS_WITH',
  ge: 'GTE',
  le: 'LTE',
};

const SYMBOLIC = /^\s*([A-Za-z_][\w.]*)\s*(>=|<=|!=|==|\^=|\$=|=|~|>|<)\s*(.*?)\s*$/s;
const WORDED = /^\s*([A-Za-z_][\w.]*)\s+([A-Za-z_]+)\s+(.*?)\s*$/s;

function valueOf(text: string): string | number | boolean {
  const quoted = /^(["'])(.*)\1$/s.exec(text);
  if (quoted) return quoted[2]!;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Parses one `--where` expression; a malformed one is a `USAGE` error saying what is allowed. */
export function parseWhere(expression: string): ConditionSpec {
  const sym = SYMBOLIC.exec(expression);
  const word = sym ? undefined : WORDED.exec(expression);
  const fn = sym ? SYMBOLS[sym[2]!] : word ? WORDS[word[2]!.toLowerCase()] : undefined;
  const m = sym ?? word;
  if (!m || !fn || m[3] === '') {
    throw new OaaError(`--where ${JSON.stringify(expression)} is not 'property OPERATOR value'`, {
      code: 'USAGE',
      hints: [
        'operators: = != ~ ^= $= > >= < <= (or eq ne contains starts_with ends_with gt ge lt le)',
        "example: --where 'customprop_department = Engineering' --where 'is_active = true'",
      ],
    });
  }
  return { fn, property: m[1]!, value: valueOf(m[3]!) };
}
