/**
 * The opaque `page_token` of every paged answer (lists, events, node queries): a position as
 * base64url JSON. Where a position means nothing for another query, the token also carries a
 * fingerprint of its query, and one sent with another query is refused rather than answered with the
 * wrong page.
 */
import { hash } from 'node:crypto';
import { badField } from '../errors.js';

/** Longer than any token the emulator issues. */
const MAX_TOKEN_LENGTH = 1024;
const NOT_OURS = 'is not a token this service issued';

/** The fields of a position: `count` a non-negative integer (offset, row id, sequence), or `text`. */
export type PositionFields = Record<string, 'count' | 'text'>;
/** A position with the fields `F`. */
export type Position<F extends PositionFields> = { [K in keyof F]: F[K] extends 'count' ? number : string };

/** A fingerprint of `query` (any JSON value) to bind tokens to. */
export function queryFingerprint(query: unknown): string {
  return hash('sha256', JSON.stringify(query), 'base64url').slice(0, 16);
}

/** The page tokens of one paged answer: positions with the fields `fields`. */
export class PageTokens<F extends PositionFields> {
  /**
   * @param otherQuery - the refusal of a token of another query: what to send instead. Without it,
   * tokens carry no fingerprint (a position that holds for every query).
   */
  constructor(
    private readonly fields: F,
    private readonly otherQuery?: string,
  ) {}

  /** `at` as a token, bound to the query of `fingerprint` when this answer's tokens are. */
  encode(at: Position<F>, fingerprint = ''): string {
    const body = this.otherQuery === undefined ? at : { ...at, f: fingerprint };
    return Buffer.from(JSON.stringify(body)).toString('base64url');
  }

  /**
   * The position of `token` (a query parameter, as received), or undefined when it is absent or
   * empty: the first page. A token given twice, damaged, or (when bound) issued for another query
   * than the one of `fingerprint` is a 400 naming `page_token`.
   */
  decode(token: unknown, fingerprint = ''): Position<F> | undefined {
    if (token === undefined || token === '') return undefined;
    if (typeof token !== 'string') throw badField('page_token', 'must be given once');
    let parsed: unknown;
    try {
      if (token.length <= MAX_TOKEN_LENGTH)
        parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    } catch {
      // answered below
    }
    if (typeof parsed !== 'object' || parsed === null) throw badField('page_token', NOT_OURS);
    const p = parsed as Record<string, unknown>;
    for (const [name, kind] of Object.entries(this.fields)) {
      const v = p[name];
      const ok = kind === 'text' ? typeof v === 'string' : Number.isSafeInteger(v) && (v as number) >= 0;
      if (!ok) throw badField('page_token', NOT_OURS);
    }
    if (this.otherQuery !== undefined && p.f !== fingerprint) throw badField('page_token', this.otherQuery);
    return Object.fromEntries(Object.keys(this.fields).map((name) => [name, p[name]])) as Position<F>;
  }
}
