/**
 * What a connector reports with `ctx.logger.warn` during a run, kept for the run's result: findings
 * that are not errors (a group cycle it broke, a referral it did not follow, a manager it could not
 * resolve) belong in the report, not only in a log that `oaa run` does not show by default. Each
 * call still goes to the log as before.
 */
import type { ConnectorLogger } from '@oaakit/core';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { REDACT_PATHS } from '../logger.js';

/** Connector warnings a result lists; the others are only counted. */
export const CONNECTOR_WARNINGS_KEPT = 1000;

/** What replaces a redacted value, in the log and in the result alike. */
const CENSOR = '[REDACTED]';

/** One `ctx.logger.warn(details, message)` call of a connector, redacted as the log redacts it. */
export interface ConnectorWarning {
  /** The message, as the log line's `msg`. */
  message: string;
  /** The fields the connector logged with it, as the log line shows them; absent when none. */
  details?: Record<string, unknown>;
}

/** The connector warnings of a run, as its result holds them. */
export interface ConnectorWarningsReport {
  /** The first {@link CONNECTOR_WARNINGS_KEPT} warnings, in the order they were logged. */
  connectorWarnings: ConnectorWarning[];
  /** How many more the connector logged than `connectorWarnings` lists; absent when none. */
  connectorWarningsOmitted?: number;
}

/** Collects the warnings of one run's connector. */
export class ConnectorWarnings {
  private readonly kept: ConnectorWarning[] = [];
  private omitted = 0;
  /** A logger with the log's redaction whose one line goes to `line`: the record as the log has it. */
  private readonly recorder: Logger;
  private line = '';
  /** The run's secret values (long enough to be told apart from ordinary text), JSON-escaped. */
  private readonly secrets: string[];

  constructor(secrets: readonly string[]) {
    this.recorder = pino(
      { level: 'warn', base: null, timestamp: false, redact: { paths: [...REDACT_PATHS], censor: CENSOR } },
      { write: (line: string) => void (this.line = line) },
    );
    this.secrets = secrets.filter((s) => s.length >= 4).map((s) => JSON.stringify(s).slice(1, -1));
  }

  /**
   * `logger` as the connector gets it: the same logger, whose `warn` also keeps the call for the
   * result. Everything else (the other levels, `child`) is the logger's own.
   */
  wrap<L extends ConnectorLogger>(logger: L): L {
    const wrapped = Object.create(logger) as L;
    const keep = (args: unknown[]): void => this.keep(args);
    Object.defineProperty(wrapped, 'warn', {
      configurable: true,
      writable: true,
      value(...args: unknown[]): void {
        (logger.warn as (...a: unknown[]) => void).call(logger, ...args);
        keep(args);
      },
    });
    return wrapped;
  }

  /** The fields of the result; complete once the connector has stopped logging. */
  report(): ConnectorWarningsReport {
    return {
      connectorWarnings: [...this.kept],
      ...(this.omitted === 0 ? {} : { connectorWarningsOmitted: this.omitted }),
    };
  }

  private keep(args: unknown[]): void {
    if (this.kept.length >= CONNECTOR_WARNINGS_KEPT) {
      this.omitted++;
      return;
    }
    this.line = '';
    try {
      this.recorder.warn.call(this.recorder, ...(args as [object, string?]));
      let text = this.line;
      for (const secret of this.secrets) text = text.replaceAll(secret, CENSOR);
      const record = JSON.parse(text) as Record<string, unknown>;
      const first = args[0];
      // The log's own level field, unless the connector logged a field of that name.
      if (!(typeof first === 'object' && first !== null && 'level' in first)) delete record.level;
      const { msg, ...details } = record;
      this.kept.push({
        message: typeof msg === 'string' ? msg : '',
        ...(Object.keys(details).length === 0 ? {} : { details }),
      });
    } catch {
      // What the log cannot write as a line is not kept either; the count still shows it.
      this.omitted++;
    }
  }
}
