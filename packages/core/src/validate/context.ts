/** The walk state shared by every check: a path stack and the violations found so far. */
import type { Violation } from '../errors.js';

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Formats a path stack as the service writes field paths: `applications[0].local_users[3].groups[1]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/**
 * Collects violations while a payload is walked. The path is a stack pushed and popped as the walk
 * descends, so a valid payload costs no string building at all.
 */
export class CheckContext {
  readonly path: PathSegment[] = [];
  readonly errors: Violation[] = [];
  readonly warnings: Violation[] = [];

  error(description: string, ...extra: PathSegment[]): void {
    this.errors.push({ field: formatPath(extra.length ? [...this.path, ...extra] : this.path), description });
  }

  warn(description: string, ...extra: PathSegment[]): void {
    this.warnings.push({
      field: formatPath(extra.length ? [...this.path, ...extra] : this.path),
      description,
    });
  }

  /** Runs `fn` with `segment` pushed on the path. */
  at(segment: PathSegment, fn: () => void): void {
    this.path.push(segment);
    try {
      fn();
    } finally {
      this.path.pop();
    }
  }
}

/** Describes a JSON value's kind for messages: `string`, `number`, `array`, `null`, ... */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Reports an entity's `operation` (at the context's path) unless the payload is incremental. */
export function checkOperation(ctx: CheckContext, incremental: boolean, operation: unknown): void {
  if (!incremental && operation) ctx.error('is only allowed when incremental_change is true', 'operation');
}
