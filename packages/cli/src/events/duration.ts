/** `--since 15m`: a duration of seconds, minutes, hours or days, back from now. */
import { OaaError } from '@oaakit/core';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds of `text` (`90s`, `15m`, `2h`, `7d`, or combined: `1d12h`).
 *
 * @example
 * parseDuration('1h30m') // 5400000
 */
export function parseDuration(text: string, flag = '--since'): number {
  const parts = [...text.trim().matchAll(/(\d+)\s*([smhd])/gi)];
  const joined = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || joined.replace(/\s/g, '') !== text.replace(/\s/g, ''))
    throw new OaaError(`${flag} must be a duration such as 15m, 2h or 7d, not ${JSON.stringify(text)}`, {
      code: 'USAGE',
    });
  return parts.reduce((ms, p) => ms + Number(p[1]) * (UNITS[(p[2] ?? 's').toLowerCase()] ?? 0), 0);
}
