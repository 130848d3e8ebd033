/** `startEmulator`: opens the database, seeds API keys, and serves the emulator over HTTP(S). */
import { ACCEPT_BODY_LIMIT_BYTES } from '@oaakit/core';
import { createKey, type SeedKey } from './auth/api-keys.js';
import { buildApp } from './app.js';
import { CallLog } from './calls.js';
import { EmulatorClock } from './clock.js';
import type { EmulatorContext } from './context.js';
import { SignInLimits } from './console/auth/sign-in-limits.js';
import { closeWorkerConnection } from './db/worker-connection.js';
import { openDatabase } from './db/schema.js';
import { setMaxEvents } from './store/events.js';
import { FaultStore } from './faults.js';
import { resolveLimits, type EmulatorLimits } from './limits.js';
import type { SmtpOptions } from './mail/send-mail.js';
import { SubscriptionRunner } from './subscriptions/subscription-runner.js';
import { silentLogger, type EmulatorLogger } from './logger.js';
import { selfSignedCertificate } from './tls.js';

/** Inactivity after which a multipart upload expires by default: one hour. */
export const DEFAULT_UPLOAD_SESSION_TTL_MS = 60 * 60 * 1000;

export interface StartEmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /** Serve HTTPS with a self-signed certificate generated at start. */
  tls?: boolean;
  /** SQLite file; default `:memory:` (nothing survives `close()`). */
  dbPath?: string;
  /** Keys to accept. Without any admin key, one is generated and returned as `adminKey`. */
  apiKeys?: SeedKey[];
  /** The emulator's time; default a clock that follows real time and can be moved. */
  clock?: EmulatorClock;
  logger?: EmulatorLogger;
  /** Largest request body in bytes; default the spec's 100 MB (104857600). */
  bodyLimit?: number;
  /** Inactivity after which a multipart upload expires; default one hour of emulator time. */
  uploadSessionTtlMs?: number;
  /** SMTP server for the mail the emulator sends (subscription alerts, template tests); none: no mail. */
  smtp?: SmtpOptions;
  /** Bound on delivering one subscription alert (SMTP or webhook); default 10 seconds. */
  deliveryTimeoutMs?: number;
  /**
   * Caps on open multipart uploads per key, faults, API keys, console sessions per user and stored
   * events; each one left out keeps its default (`DEFAULT_LIMITS`).
   */
  limits?: Partial<EmulatorLimits>;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** An admin API key: the first seeded admin key, or a generated one. */
  adminKey: string;
  /** Whether `adminKey` was generated at this start (the bin prints it then). */
  adminKeyGenerated: boolean;
  /** The self-signed certificate (PEM) when serving HTTPS, for clients to trust. */
  certificate: string | undefined;
  /** The emulator's clock (also controllable over `/_emulator/clock`). */
  clock: EmulatorClock;
  /** Stops listening, drops open connections and closes the database. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the emulator.
 *
 * @example
 * const emu = await startEmulator();
 * await fetch(`${emu.url}/api/v1/providers/custom`, { headers: { authorization: `Bearer ${emu.adminKey}` } });
 * await emu.close();
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? new EmulatorClock();
  const limits = resolveLimits(options.limits);
  const db = openDatabase(options.dbPath ?? ':memory:');
  // `subscriptions` is set just below: the runner needs the context it belongs to.
  const ctx = {
    db,
    clock,
    logger: options.logger ?? silentLogger,
    faults: new FaultStore(),
    calls: new CallLog(),
    uploadSessionTtlMs: options.uploadSessionTtlMs ?? DEFAULT_UPLOAD_SESSION_TTL_MS,
    limits,
    smtp: options.smtp,
    signInLimits: new SignInLimits(),
  } as EmulatorContext;
  const subscriptions = new SubscriptionRunner(ctx, options.deliveryTimeoutMs);
  ctx.subscriptions = subscriptions;
  try {
    setMaxEvents(db, limits.maxEvents);
    let adminKey: string | undefined;
    for (const seed of options.apiKeys ?? []) {
      const role = seed.role ?? 'admin';
      createKey(db, { key: seed.key, role, name: seed.name ?? `seeded ${role} key`, createdAt: clock.iso() });
      if (role === 'admin') adminKey ??= seed.key;
    }
    const adminKeyGenerated = adminKey === undefined;
    adminKey ??= createKey(db, { role: 'admin', name: 'generated at start', createdAt: clock.iso() }).key;

    const tls = options.tls ? selfSignedCertificate(host) : undefined;
    const app = buildApp(ctx, {
      bodyLimit: options.bodyLimit ?? ACCEPT_BODY_LIMIT_BYTES,
      ...(tls ? { https: tls } : {}),
    });
    await app.listen({ port: options.port ?? 0, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
    const url = `${tls ? 'https' : 'http'}://${urlHost(host)}:${port}`;
    ctx.logger.info({ url }, 'emulator listening');
    subscriptions.baseUrl = url;
    subscriptions.start();
    let closed: Promise<void> | undefined;
    return {
      url,
      adminKey,
      adminKeyGenerated,
      certificate: tls?.cert,
      clock,
      close: () =>
        (closed ??= (async () => {
          await app.close();
          await subscriptions.stop();
          await closeWorkerConnection(db);
          db.close();
        })()),
    };
  } catch (err) {
    db.close();
    throw err;
  }
}
