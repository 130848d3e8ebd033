/** Collects a connector's source requests and their answers, scrubbed, and writes them as a HAR file. */
import { createRequire } from 'node:module';
import { writeFileAtomic } from '../state/atomic-write.js';
import { createScrubber } from './scrub.js';
import type { HarScrub, Scrubber } from './scrub.js';
import type { Har, HarEntry } from './types.js';

/** The recorder's name in the files it writes (`log.creator.name`). */
export const HAR_CREATOR = 'oaakit';

/** This package's version, for `log.creator.version`. */
function runnerVersion(): string {
  // src/har/ and dist/har/ are both two levels below the package.json.
  const manifest = createRequire(import.meta.url)('../../package.json') as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}

/** The start of time and its HTTP date, for recordings with stable times. */
const EPOCH = new Date(0).toISOString();
const EPOCH_HTTP_DATE = new Date(0).toUTCString();

/** Options of a {@link HarRecorder}. */
export interface HarRecorderOptions {
  /** What is scrubbed from every entry before it is kept (credential headers always are). */
  scrub?: HarScrub;
  /**
   * Every entry started at the epoch with times of 0, and `Date` headers set to the epoch, so the
   * same answers recorded twice give the same file (a committed fixture).
   */
  stableTimes?: boolean;
}

/**
 * Collects HAR entries, scrubbed as they are added: `authorization`, `proxy-authorization`, `cookie`
 * and `set-cookie` values always, plus the secrets and fields of `options.scrub`. Fill it with
 * {@link recordingFetch}, or {@link HarRecorder.add}.
 *
 * @example
 * const recorder = new HarRecorder({ scrub: { secrets: [token] } });
 * const ctx = createConnectorContext({ ..., fetch: recordingFetch(fetch, recorder) });
 * await connector.extract(ctx);
 * await recorder.write('source.har');
 */
export class HarRecorder {
  /** The file's `log.comment`: what was recorded, how it ended. Scrubbed when written. */
  comment: string | undefined;
  readonly #entries: HarEntry[] = [];
  readonly #scrubber: Scrubber;
  readonly #stableTimes: boolean;

  constructor(options: HarRecorderOptions = {}) {
    this.#scrubber = createScrubber(options.scrub);
    this.#stableTimes = options.stableTimes ?? false;
  }

  /** The entries so far, scrubbed, in the order they were added (for requests: completed). */
  get entries(): readonly HarEntry[] {
    return this.#entries;
  }

  /** Adds an entry, scrubbed (and with stable times when asked). */
  add(entry: HarEntry): void {
    const scrubbed = this.#scrubber.entry(entry);
    this.#entries.push(this.#stableTimes ? stable(scrubbed) : scrubbed);
  }

  /** The HAR document of the entries so far. */
  toHar(): Har {
    return {
      log: {
        version: '1.2',
        creator: { name: HAR_CREATOR, version: runnerVersion() },
        entries: [...this.#entries],
        ...(this.comment === undefined ? {} : { comment: this.#scrubber.text(this.comment) }),
      },
    };
  }

  /** Writes the HAR file (pretty JSON), atomically: a reader sees the old file or the whole new one. */
  async write(file: string): Promise<void> {
    await writeFileAtomic(file, `${JSON.stringify(this.toHar(), null, 2)}\n`);
  }
}

function stable(entry: HarEntry): HarEntry {
  const epochDate = (h: { name: string; value: string }) =>
    h.name.toLowerCase() === 'date' ? { ...h, value: EPOCH_HTTP_DATE } : h;
  return {
    ...entry,
    startedDateTime: EPOCH,
    time: 0,
    timings: { send: 0, wait: 0, receive: 0 },
    request: { ...entry.request, headers: entry.request.headers.map(epochDate) },
    response: { ...entry.response, headers: entry.response.headers.map(epochDate) },
  };
}
