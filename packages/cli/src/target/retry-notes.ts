/** A client logger that tells the user, on stderr, when a request is retried; silent otherwise. */
import type { ClientLogger } from '@oaakit/client';
import { formatDuration } from '../output/format.js';

/** Retries become one note each, so a slow command never looks hung. */
export function retryNotes(note: (text: string) => void): ClientLogger {
  return {
    debug: () => undefined,
    warn(fields) {
      const what = [fields['method'], fields['path']].filter((x) => typeof x === 'string').join(' ');
      const reason = fields['status'] ?? fields['code'];
      const why = typeof reason === 'number' || typeof reason === 'string' ? String(reason) : 'error';
      const delay = typeof fields['delayMs'] === 'number' ? formatDuration(fields['delayMs']) : 'a moment';
      note(`${what || 'request'} failed (${why}); retrying in ${delay} (retry ${String(fields['attempt'])})`);
    },
  };
}
