/**
 * How an error looks to a user: message, every violation, hints; a stack only with `OAA_DEBUG=1`;
 * never a secret. The only place the CLI turns errors into text or JSON.
 */
import { isOaaError } from '@oaakit/core';
import type { OaaError, Violation } from '@oaakit/core';
import { exitCodeOf } from '../exit-codes.js';
import { hintsWithCredentials } from './credential-hints.js';
import type { KeySource } from './credential-hints.js';
import { violationLines } from './format.js';
import type { ExitCode } from '../exit-codes.js';

/** An error as `--json` prints it (under `error`). */
export interface ErrorJson {
  code: string;
  message: string;
  exitCode: ExitCode;
  retryable: boolean;
  hints: string[];
  /** Every field violation, the service's included (also when a run wrapped its error). */
  violations: Violation[];
  /** The service's request id of the failed call, to quote when reporting a problem. */
  requestId: string | null;
  details: Record<string, unknown>;
}

/** Options of the renderers. */
export interface RenderErrorOptions {
  /** Secret values (API keys) to blank out wherever they might appear. */
  secrets: readonly string[];
  /** Include stacks and causes (`OAA_DEBUG=1`). */
  debug: boolean;
  /** The command id, to point at its help on usage errors. */
  commandId?: string | undefined;
  /** Where the API key came from, to say which key to replace when the service refuses it. */
  keySource?: KeySource | undefined;
}

function violationsOf(error: OaaError<string>): Violation[] {
  const own = (error as { violations?: unknown }).violations;
  if (Array.isArray(own)) return own as Violation[];
  const inDetails = error.details['violations'];
  return Array.isArray(inDetails) ? (inDetails as Violation[]) : [];
}

function requestIdOf(error: OaaError<string>): string | null {
  const own = (error as { requestId?: unknown }).requestId;
  const id = own ?? error.details['requestId'];
  return typeof id === 'string' ? id : null;
}

/** The JSON shape of any thrown value. */
export function errorJson(error: unknown, options: RenderErrorOptions): ErrorJson {
  const exitCode = exitCodeOf(error);
  if (isOaaError(error)) {
    const { violations: _violations, ...details } = error.details;
    return scrub(
      {
        code: error.code,
        message: error.message,
        exitCode,
        retryable: error.retryable,
        hints: hintsWithCredentials(error, options.keySource),
        violations: violationsOf(error),
        requestId: requestIdOf(error),
        details,
      },
      options.secrets,
    );
  }
  const usage = exitCode === 64;
  const message = usage
    ? oneLine(String((error as Error).message))
    : error instanceof Error
      ? error.message
      : String(error);
  const hints =
    usage && options.commandId !== undefined
      ? [`see \`oaa ${options.commandId.replaceAll(':', ' ')} --help\``]
      : [];
  return scrub(
    {
      code: usage ? 'USAGE' : 'INTERNAL',
      message,
      exitCode,
      retryable: false,
      hints,
      violations: [],
      requestId: null,
      details: {},
    },
    options.secrets,
  );
}

/** The text shown on stderr for an error. */
export function errorText(error: unknown, options: RenderErrorOptions): string {
  const json = errorJson(error, options);
  const lines = [`Error: ${json.message}`];
  for (const v of json.violations) lines.push(`  ${v.field || '(payload)'}: ${v.description}`);
  const warnings = json.details['warnings'];
  if (Array.isArray(warnings)) lines.push(...violationLines('Warnings', warnings as Violation[]));
  for (const hint of json.hints) lines.push(`Hint: ${hint}`);
  if (json.code === 'INTERNAL' && !options.debug) lines.push('Hint: set OAA_DEBUG=1 to see the stack');
  if (options.debug) lines.push(...debugLines(error));
  return scrub(lines.join('\n'), options.secrets);
}

/** oclif's multi-line parse errors as one line, without its own "see --help" (a hint says that). */
function oneLine(message: string): string {
  const parts = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^See more help with/.test(l));
  return parts.reduce(
    (text, part) => (text === '' ? part : `${text}${text.endsWith(':') ? '' : ':'} ${part}`),
    '',
  );
}

function debugLines(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    lines.push(depth === 0 ? (current.stack ?? '') : `Caused by: ${current.stack ?? current.message}`);
    current = current.cause;
  }
  return lines;
}

/** Replaces every occurrence of each secret in strings nested anywhere in `value`. */
export function scrub<T>(value: T, secrets: readonly string[]): T {
  const real = secrets.filter((s) => s.length >= 4);
  if (real.length === 0) return value;
  const text = JSON.stringify(value);
  if (!real.some((s) => text.includes(JSON.stringify(s).slice(1, -1)))) return value;
  let out = text;
  for (const s of real) out = out.replaceAll(JSON.stringify(s).slice(1, -1), '[REDACTED]');
  return JSON.parse(out) as T;
}
