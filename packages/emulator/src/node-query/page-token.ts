/**
 * The `page_token` of a node query: where the scan of candidate nodes stopped (the index of the node
 * type and the last row id), bound to the request it was issued for.
 */
import { createHash } from 'node:crypto';
import { badField } from '../errors.js';

/** A scan position: the next node type to read, after row id `rid`. */
export interface ScanPosition {
  type: number;
  rid: number;
}

/** A fingerprint of the request body, so a token is refused for another query. */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 16);
}

/** Encodes a position for `next_page_token`. */
export function encodeToken(print: string, at: ScanPosition): string {
  return Buffer.from(JSON.stringify({ f: print, t: at.type, r: at.rid })).toString('base64url');
}

/** Decodes `page_token`; a token of another query or a damaged one is a 400. */
export function decodeToken(token: string | undefined, print: string): ScanPosition {
  if (token === undefined || token === '') return { type: 0, rid: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const p = parsed as { f?: unknown; t?: unknown; r?: unknown } | undefined;
  if (!p || !Number.isSafeInteger(p.t) || !Number.isSafeInteger(p.r))
    throw badField('page_token', 'is not a token this query returned');
  if (p.f !== print) throw badField('page_token', 'belongs to another query; send the same request body');
  return { type: p.t as number, rid: p.r as number };
}
