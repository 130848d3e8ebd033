/** Small formatters for human output. */
import type { Violation } from '@oaakit/core';

/** `1234567` -> `1.2 MB`; decimal units, as the service counts its limits. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 'B';
  for (const next of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = next;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`;
}

/** `1234` -> `1.2 s`, `65000` -> `1 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `1 warning` / `2 warnings`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `Warnings (2):` then one indented `field: description` line each; empty when there are none. */
export function violationLines(title: string, violations: readonly Violation[]): string[] {
  if (violations.length === 0) return [];
  return [
    `${title} (${violations.length}):`,
    ...violations.map((v) => `  ${v.field || '(payload)'}: ${v.description}`),
  ];
}
