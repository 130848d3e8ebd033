/**
 * Collects every problem of a run, each located as `file:line:column`, so the user fixes them all
 * in one go instead of one per run.
 */
import { ValidationError, type Violation } from '@oaakit/core';

/** Where a problem is: the file as configured, the 1-based line, and the column header (or `#n`). */
export interface Location {
  file: string;
  line: number;
  column: string;
}

/** The `field` of a violation: `file:line:column`. */
export function locate({ file, line, column }: Location): string {
  return `${file}:${line}:${column}`;
}

/** How many violations the error message itself lists; all of them are in `violations`. */
const MESSAGE_LINES = 10;

export class Problems {
  private readonly listed: (Violation & { file: number; line: number })[] = [];
  private readonly fileOrder = new Map<string, number>();
  private total = 0;

  /** `files` in the order problems are listed by; `max`: how many are listed at most. */
  constructor(
    files: readonly string[],
    private readonly max: number,
  ) {
    files.forEach((f, i) => this.fileOrder.has(f) || this.fileOrder.set(f, i));
  }

  /** Whether a problem added now would be listed (not only counted). */
  get listing(): boolean {
    return this.listed.length < this.max;
  }

  add(at: Location, description: string): void {
    this.total++;
    if (this.listed.length === this.max) return;
    const file = this.fileOrder.get(at.file) ?? this.fileOrder.size;
    this.listed.push({ field: locate(at), description, file, line: at.line });
  }

  /** Throws one `ValidationError` listing the problems, if there are any. */
  throwIfAny(): void {
    if (this.total === 0) return;
    // In file and line order, although a missing manager is found only at the end of the input.
    const sorted = [...this.listed].sort((a, b) => a.file - b.file || a.line - b.line);
    const violations: Violation[] = sorted.map(({ field, description }) => ({ field, description }));
    const unlisted = this.total - this.listed.length;
    if (unlisted > 0)
      violations.push({
        field: '*',
        description: `${unlisted} more problems are not listed (maxErrors is ${this.max})`,
      });
    const lines = violations.slice(0, MESSAGE_LINES).map((v) => `  ${v.field}: ${v.description}`);
    if (violations.length > MESSAGE_LINES) lines.push(`  ... and ${violations.length - MESSAGE_LINES} more`);
    throw new ValidationError(
      `the CSV input has ${this.total} ${this.total === 1 ? 'problem' : 'problems'}:\n${lines.join('\n')}`,
      violations,
      { hints: ['fix the rows named file:line:column and run again'], details: { problems: this.total } },
    );
  }
}
