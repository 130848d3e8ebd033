/**
 * `record` and `replay` of a run or a check: the fetch its `ctx.http` uses, and the recording written
 * when it ends, whether it succeeded or failed.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { OaaError } from '@oaakit/core';
import type { Logger } from 'pino';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { readHar } from '../har/read-har.js';
import { HarRecorder } from '../har/recorder.js';
import { recordingFetch } from '../har/recording-fetch.js';
import { replayFetch } from '../har/replay-fetch.js';
import type { HarScrub } from '../har/scrub.js';

/** What a run or check is given about its source. */
export interface SourceRecordingOptions {
  record?: string | undefined;
  replay?: string | undefined;
  sourceFetch?: typeof globalThis.fetch | undefined;
  secrets?: Readonly<Record<string, string>> | undefined;
  scrubFields?: readonly string[] | undefined;
}

/** The source of one run or check. */
export interface SourceRecording {
  /** The fetch of `ctx.http`: recording, replaying, or the one given. */
  fetch: typeof globalThis.fetch | undefined;
  /** Writes the recording, when recording, saying the run ended with `outcome`; a failure to write throws. */
  succeeded(outcome: string): Promise<void>;
  /** Writes the recording, when recording, with the run's error; a failure to write is logged, not thrown. */
  failed(error: unknown, logger: Logger): Promise<void>;
}

function unwritable(file: string, cause: unknown): OaaError {
  return new OaaError(`cannot write the recording ${file}: ${(cause as Error).message}`, {
    code: RUNNER_ERROR_CODES.HAR_INVALID,
    cause,
    details: { file },
    hints: ['record into a file of a directory that exists and can be written'],
  });
}

/** The first line of an error, with its code, for the recording's comment. */
function describeError(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

/**
 * The source of a run or check named `what` (e.g. `run of connector "hr" (plugin scim-app 0.1.0)`).
 * Reads the replay's HAR file, or checks that the recording's directory can be written, before
 * anything runs: `HAR_INVALID` names the file. Both at once is `INVALID_ARGUMENT`.
 */
export async function openSource(options: SourceRecordingOptions, what: string): Promise<SourceRecording> {
  const { record, replay } = options;
  if (record !== undefined && replay !== undefined) {
    throw new OaaError(
      'record and replay cannot be given together: a run records its source or replays one',
      {
        code: 'INVALID_ARGUMENT',
        details: { record, replay },
      },
    );
  }
  const scrub: HarScrub = {
    secrets: Object.values(options.secrets ?? {}),
    fields: options.scrubFields ?? [],
  };
  const nothing = (): Promise<void> => Promise.resolve();
  if (replay !== undefined) {
    const har = await readHar(replay);
    return { fetch: replayFetch(har, { scrub, file: replay }), succeeded: nothing, failed: nothing };
  }
  if (record === undefined) return { fetch: options.sourceFetch, succeeded: nothing, failed: nothing };
  try {
    await access(dirname(resolve(record)), constants.W_OK);
  } catch (cause) {
    throw unwritable(record, cause);
  }
  const recorder = new HarRecorder({ scrub });
  const write = async (outcome: string): Promise<void> => {
    recorder.comment = `${what}: ${outcome}`;
    try {
      await recorder.write(record);
    } catch (cause) {
      throw unwritable(record, cause);
    }
  };
  return {
    fetch: recordingFetch(options.sourceFetch ?? globalThis.fetch, recorder),
    succeeded: (outcome) => write(`succeeded (${outcome})`),
    async failed(error, logger) {
      try {
        await write(`failed: ${describeError(error)}`);
      } catch (writeError) {
        logger.error(
          { err: writeError, path: record },
          'the recording of the failed run could not be written',
        );
      }
    },
  };
}
