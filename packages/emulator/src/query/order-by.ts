/** `order_by`: comma-separated fields, each optionally followed by `asc` or `desc`. */
import { badField } from '../errors.js';
import { ownEntry } from '../http/own-entry.js';

/** SQL ORDER BY terms for `text` over the allowed column map; insertion order breaks ties. */
export function orderBySql(
  text: string | undefined,
  columns: Record<string, string>,
  tieBreaker: string,
): string {
  const terms: string[] = [];
  if (text !== undefined && text.trim() !== '') {
    for (const part of text.split(',')) {
      const words = part.trim().split(/[ \t]+/);
      const [field, direction, ...rest] = words;
      const col = field === undefined ? undefined : ownEntry(columns, field);
      if (col === undefined || rest.length > 0) {
        throw badField(
          'order_by',
          `cannot order by ${JSON.stringify(part.trim())}: use one of ${Object.keys(columns).join(', ')}, optionally followed by asc or desc`,
        );
      }
      const dir = direction?.toLowerCase();
      if (dir !== undefined && dir !== 'asc' && dir !== 'desc') {
        throw badField('order_by', `unknown direction ${JSON.stringify(direction)}: use asc or desc`);
      }
      terms.push(`${col} ${dir === 'desc' ? 'DESC' : 'ASC'}`);
    }
  }
  terms.push(`${tieBreaker} ASC`);
  return terms.join(', ');
}
