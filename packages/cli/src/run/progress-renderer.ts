/**
 * Renders run progress on stderr: a live line rewritten in place on a terminal, or one line per
 * phase boundary when stderr is a file or a pipe (`--progress`).
 */
import type { RunProgressEvent } from '@oaakit/runner';
import { formatBytes } from '../output/format.js';

/** Where progress goes and how. */
export interface ProgressOutput {
  write(text: string): void;
  /** Rewrite one line in place (a terminal), rather than append lines. */
  live: boolean;
}

/** A progress sink: `onProgress` for the runner, `finish` before other output. */
export interface ProgressRenderer {
  onProgress(event: RunProgressEvent): void;
  finish(): void;
}

function describe(event: RunProgressEvent): string | undefined {
  const tag = `[${event.connectorId}] ${event.phase}`;
  switch (event.phase) {
    case 'extract':
      if (event.kind === 'end') return `${tag}: done`;
      if (event.step === undefined) return `${tag}...`;
      return `${tag}: ${event.step} ${event.done ?? 0}${event.total === undefined ? '' : `/${event.total}`}`;
    case 'validate':
      return event.kind === 'end'
        ? `${tag}: ${event.errors ?? 0} errors, ${event.warnings ?? 0} warnings`
        : `${tag}...`;
    case 'diff':
      if (event.kind !== 'end' || event.diff === undefined) return `${tag}...`;
      return `${tag}: +${event.diff.totals.added} -${event.diff.totals.removed} ~${event.diff.totals.changed}`;
    case 'push':
      if (event.compressedBytes === undefined) return event.kind === 'end' ? `${tag}: done` : `${tag}...`;
      return `${tag}: ${formatBytes(event.compressedBytes)} sent${event.kind === 'end' ? ', done' : ''}`;
  }
}

/** A renderer writing to `output`. */
export function createProgressRenderer(output: ProgressOutput): ProgressRenderer {
  let shown = false;
  return {
    onProgress(event) {
      const text = describe(event);
      if (text === undefined) return;
      if (output.live) {
        output.write(`\r\x1b[K${text}`);
        shown = true;
      } else if (event.kind !== 'progress') {
        output.write(`${text}\n`);
      }
    },
    finish() {
      if (shown) output.write('\r\x1b[K');
      shown = false;
    },
  };
}

/** A renderer that shows nothing. */
export const NO_PROGRESS: ProgressRenderer = { onProgress: () => undefined, finish: () => undefined };
