/**
 * Target resolution for every service command: `--url`/`--api-key`, then `OAA_URL`/`OAA_API_KEY`,
 * then the config file's target, then the URL of `oaa auth login` with its keychain key (or OAuth2
 * login); with no target at all, the embedded emulator.
 */
import { createClient, type RetryOptions } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import type { Client, ClientLogger } from '@oaakit/client';
import type { TargetConfig } from '@oaakit/runner';
import type { CredentialSource } from '@oaakit/runner';

/** Options of {@link connect}. */
export interface ConnectOptions {
  flags: { url?: string | undefined; apiKey?: string | undefined };
  /** The config file's `target`, for `oaa run`. */
  configTarget?: TargetConfig | undefined;
  /** The URL `oaa auth login` remembered. */
  savedUrl?: string | undefined;
  /** Where the embedded emulator keeps its database. */
  stateDir: string;
  userAgent: string;
  /** Receives the client's retry records. */
  logger: ClientLogger;
}

/** A client and where it points. */
export interface Connection {
  client: Client;
  url: string;
  /** The API key in use, so output can blank it out. */
  apiKey: string;
  /** `embedded` for the in-process emulator. */
  apiKeySource: CredentialSource | 'embedded';
  embedded: boolean;
  /** Stops the embedded emulator; nothing for a remote target. */
  close(): Promise<void>;
}

/**
 * The client's retry policy: the defaults, except the wait after `ResourceExhaused` (the spec's one
 * minute) when `OAA_RESOURCE_EXHAUSTED_WAIT_MS` sets it (tests, impatient users).
 */
function retryFromEnv(): RetryOptions | undefined {
  const text = process.env['OAA_RESOURCE_EXHAUSTED_WAIT_MS'];
  if (text === undefined || text === '') return undefined;
  const ms = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(ms))
    throw new OaaError(
      `OAA_RESOURCE_EXHAUSTED_WAIT_MS must be whole milliseconds, not ${JSON.stringify(text)}`,
      {
        code: 'CONFIG_INVALID',
      },
    );
  return { resourceExhaustedDelayMs: ms };
}

/** Resolves the target and makes a client for it, starting the embedded emulator when there is none. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const target =
    options.configTarget ?? (options.savedUrl === undefined ? undefined : { url: options.savedUrl });
  // The runner and the emulator load only when needed: every command module is imported at start-up.
  const { resolveTarget } = await import('@oaakit/runner');
  const resolved = await resolveTarget({ flags: options.flags, target });
  const retry = retryFromEnv();
  if (resolved !== undefined) {
    const client = createClient({
      url: resolved.url,
      // An OAuth2 login refreshes itself (and stores the rotated tokens) as calls need it.
      apiKey: resolved.credential ?? resolved.apiKey,
      userAgent: options.userAgent,
      logger: options.logger,
      ...(retry === undefined ? {} : { retry }),
    });
    return {
      client,
      url: resolved.url,
      apiKey: resolved.apiKey,
      apiKeySource: resolved.apiKeySource,
      embedded: false,
      close: () => Promise.resolve(),
    };
  }
  const { startEmbeddedEmulator } = await import('./embedded-emulator.js');
  const emulator = await startEmbeddedEmulator(options.stateDir);
  const client = createClient({
    url: emulator.url,
    apiKey: emulator.apiKey,
    userAgent: options.userAgent,
    logger: options.logger,
    ...(retry === undefined ? {} : { retry }),
  });
  return {
    client,
    url: emulator.url,
    apiKey: emulator.apiKey,
    apiKeySource: 'embedded',
    embedded: true,
    close: () => emulator.close(),
  };
}
