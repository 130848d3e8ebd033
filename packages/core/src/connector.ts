/**
 * The connector contract: what a plugin author writes. A connector reads one external system and
 * returns a payload of one template; the runner does everything else (validation, diff, push, state).
 */
import * as z from 'zod';
import { OaaError } from './errors.js';
import type { PayloadByTemplate, Template } from './schemas/templates.js';
import type { Streamable } from './serialize/json-values.js';

/** Version of this contract. A plugin declares the one it was written for; the runner refuses others. */
export const CONNECTOR_API_VERSION = 1;

/** The logger a connector gets: pino-compatible, secrets already redacted by the runner. */
export interface ConnectorLogger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/** Options of one request to the source system. */
export interface SourceRequestInit extends RequestInit {
  /** Retries on 429/5xx/network errors (honouring Retry-After); default 3. 0 disables them. */
  retries?: number;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number;
}

/** HTTP to the *source* system, with retries, rate-limit handling and the run's abort signal. */
export interface SourceHttp {
  /** A request; throws an `OaaError` with the status for non-2xx answers after retries. */
  request(url: string | URL, init?: SourceRequestInit): Promise<Response>;
  /** A request whose JSON body is returned. */
  json<T = unknown>(url: string | URL, init?: SourceRequestInit): Promise<T>;
}

/** Progress of long work, shown by the CLI and exported as metrics by the daemon. */
export interface ProgressReporter {
  /** Starts a phase, e.g. `start('users', 12000)`; `total` when known. */
  start(phase: string, total?: number): void;
  /** Adds `n` (default 1) done items to the current phase. */
  tick(n?: number): void;
}

/** State the connector keeps between runs (cursors, watermarks); saved only when the push succeeds. */
export interface ConnectorState {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

/** What `check` and `extract` receive. */
export interface ConnectorContext<Config, Secret extends string> {
  /** The connector's config, parsed by its `configSchema`. */
  config: Config;
  /** Declared secrets, resolved by the runner from environment variables or the OS keychain. */
  secrets: Readonly<Record<Secret, string>>;
  logger: ConnectorLogger;
  /** Aborted when the run is cancelled (Ctrl-C, daemon shutdown): stop and return or throw. */
  signal: AbortSignal;
  http: SourceHttp;
  progress: ProgressReporter;
  state: ConnectorState;
  /**
   * The directory relative paths in the connector's config are resolved against: the config file's
   * directory when run from one. Absent means the working directory.
   */
  baseDir?: string;
}

/**
 * What `extract` returns: the payload of the connector's template. Any entity array may instead be
 * an `AsyncIterable` (or `Iterable`) of entities, streamed when the payload is serialized.
 */
export type ExtractResult<T extends Template> = PayloadByTemplate[T] | Streamable<PayloadByTemplate[T]>;

/** A declared secret: its name, and what it is for (shown by `oaa` when it is missing). */
export interface SecretDeclaration<Secret extends string> {
  name: Secret;
  description: string;
}

/** What a plugin author writes; see `defineConnector`. */
export interface ConnectorDefinition<T extends Template, S extends z.ZodType, Secret extends string = never> {
  /** Stable id, lower-case letters, digits and dashes, e.g. `csv-hris`. */
  id: string;
  /** The connector's own version (semver). */
  version: string;
  /** The contract version it was written for: `CONNECTOR_API_VERSION`. */
  apiVersion: number;
  /** The payload template it produces, which is also the provider's template. */
  template: T;
  /** One line for `oaa plugins list`. */
  description?: string;
  /** The connector's config; the runner validates the config file against it. */
  configSchema: S;
  /** Secrets it needs. Their values never appear in config files, logs or errors. */
  secrets?: readonly SecretDeclaration<Secret>[];
  /** Provider options used when the runner creates the provider. */
  provider?: {
    /** PNG or SVG bytes, base64, under 64 KB. */
    iconBase64?: string;
    /** For application connectors: how the service provisions into the application. */
    lifecycleManagementType?: 'SCIM' | 'SEND_REST_PAYLOAD';
  };
  /**
   * For a connector whose definition depends on its config (the REST connector's config names a
   * manifest, which declares the template, the secrets and what is read): the connector that runs
   * this config. The runner calls it with the config parsed by `configSchema`, before it resolves
   * the secrets, and uses what it returns for everything else: its template, secrets, config schema
   * (which checks the same config again), `check` and `extract`. What it returns is a connector of
   * its own (`defineConnector`) without `forConfig`. Throws an `OaaError` naming what is wrong when
   * the config cannot be used; `baseDir` is where relative paths in the config are resolved from.
   */
  forConfig?(config: z.infer<S>, options: { baseDir?: string }): Promise<Connector> | Connector;
  /** A cheap reachability and credentials check (`oaa run --check`); throws on failure. */
  check?(ctx: ConnectorContext<z.infer<S>, Secret>): Promise<void>;
  /** Reads the source and returns the payload. */
  extract(ctx: ConnectorContext<z.infer<S>, Secret>): Promise<ExtractResult<T>> | ExtractResult<T>;
}

/** A checked connector definition, as `defineConnector` returns it. */
export type Connector<
  T extends Template = Template,
  S extends z.ZodType = z.ZodType,
  Secret extends string = string,
> = Readonly<ConnectorDefinition<T, S, Secret>>;

const ID = /^[a-z][a-z0-9-]*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[\w.]+)?(?:\+[\w.]+)?$/;

/**
 * Declares a connector. Checks the definition at load time, so a mistake shows up when the plugin is
 * loaded rather than in the middle of a run.
 *
 * @example
 * export default defineConnector({
 *   id: 'wiki',
 *   version: '1.0.0',
 *   apiVersion: CONNECTOR_API_VERSION,
 *   template: 'application',
 *   configSchema: z.object({ baseUrl: z.url() }),
 *   secrets: [{ name: 'token', description: 'API token of the wiki' }],
 *   async extract(ctx) {
 *     const users = await ctx.http.json<{ login: string }[]>(`${ctx.config.baseUrl}/users`, {
 *       headers: { authorization: `Bearer ${ctx.secrets.token}` },
 *     });
 *     const b = new ApplicationPayloadBuilder();
 *     const app = b.addApplication({ name: 'Wiki', application_type: 'wiki' });
 *     for (const u of users) app.addLocalUser({ name: u.login });
 *     return b.build();
 *   },
 * });
 */
export function defineConnector<T extends Template, S extends z.ZodType, Secret extends string = never>(
  definition: ConnectorDefinition<T, S, Secret>,
): Connector<T, S, Secret> {
  const problems: string[] = [];
  if (!ID.test(definition.id))
    problems.push(`id ${JSON.stringify(definition.id)} must be lower-case letters, digits and dashes`);
  if (!SEMVER.test(definition.version))
    problems.push(`version ${JSON.stringify(definition.version)} must be semver, e.g. 1.0.0`);
  if (definition.apiVersion !== CONNECTOR_API_VERSION) {
    problems.push(
      `apiVersion ${definition.apiVersion} is not supported; this oaakit supports ${CONNECTOR_API_VERSION}`,
    );
  }
  if (!['application', 'identity_provider', 'hris'].includes(definition.template))
    problems.push(`template ${JSON.stringify(definition.template)} is unknown`);
  if (!(definition.configSchema instanceof z.ZodType)) problems.push('configSchema must be a zod schema');
  if (typeof definition.extract !== 'function') problems.push('extract must be a function');
  if (definition.forConfig !== undefined && typeof definition.forConfig !== 'function')
    problems.push('forConfig must be a function');
  if (problems.length) {
    throw new OaaError(`connector ${JSON.stringify(definition.id)} is invalid: ${problems.join('; ')}`, {
      code: 'CONNECTOR_INVALID',
      details: { problems },
    });
  }
  return Object.freeze({ ...definition });
}
