// @oaakit/runner: runs connectors (pipeline, state, plugin loading, credentials). The CLI calls it.

export { RUNNER_ERROR_CODES, type RunnerErrorCode } from './codes.js';
export { createLogger, type CreateLoggerOptions, type Logger } from './logger.js';

// Config file
export {
  configJsonSchema,
  configSchema,
  type ConnectorEntry,
  type OaaConfig,
  type TargetConfig,
} from './config/schema.js';
export {
  DEFAULT_STATE_DIR,
  LOCAL_DIR,
  findConfigFile,
  loadConfig,
  parseConfig,
  type LoadedConfig,
} from './config/load-config.js';

// Credentials and secrets
export { deleteApiKey, getApiKey, readKeychain, saveApiKey } from './credentials/keychain.js';
export {
  deleteOAuthLogin,
  getOAuthLogin,
  oauthCredentialOf,
  saveOAuthLogin,
  OAUTH_KEYCHAIN_SERVICE,
  type OAuthLogin,
} from './credentials/oauth-keychain.js';
export { LOOPBACK_CALLBACK_PATH, oauthLogin, type OAuthLoginOptions } from './credentials/oauth-login.js';
export {
  resolveTarget,
  type CredentialSource,
  type ResolveTargetOptions,
  type ResolvedTarget,
} from './credentials/resolve-target.js';
export { resolveSecretReference, type SecretSources } from './credentials/secrets.js';

// State
export { StateStore, type SnapshotWriter, type StateCommit } from './state/state-store.js';
export type { PreviousHashes } from './state/previous-hashes.js';
export { type StoredState } from './state/stored-state.js';
export { DirectoryBackend } from './state/directory-backend.js';
export type {
  BackendLockOptions,
  EntryCommit,
  EntryWriter,
  StateBackend,
  VersionedEntry,
} from './state/state-backend.js';
export { stateConflict } from './state/state-conflict.js';
export { stateLocked, type LockedWhere } from './state/state-locked.js';
export type { AcquireLockOptions, HeldLock, LockHolder } from './state/lock.js';
export { writeFileAtomic } from './state/atomic-write.js';

// The pipeline
export { runConnector } from './pipeline/run-connector.js';
export { connectorForConfig, type ForConfigOptions } from './plugins/for-config.js';
export { createSourceHttp, type SourceHttpOptions } from './pipeline/source-http.js';
export { type AwaitParseOptions, type ParseOutcome } from './pipeline/await-parse.js';
export { checkConnector, type CheckConnectorOptions, type CheckResult } from './pipeline/check-step.js';
export type { EntityCounts } from '@oaakit/core';
export {
  type DiffSummary,
  type GuardVerdict,
  type PushSettings,
  type RunConnectorOptions,
  type RunFlags,
  type RunPhase,
  type RunProgressEvent,
  type DryRunResult,
  type PushedRunResult,
  type RunResult,
  type RunResultCommon,
  type SkippedRunResult,
  type TargetRef,
} from './pipeline/run-types.js';
export {
  acceptConfiguredConnector,
  type AcceptConfiguredOptions,
  type AcceptedConnector,
  checkConfiguredConnector,
  type CheckConfiguredOptions,
  connectorsOfPlugin,
  findConnectorEntry,
  runConfiguredConnector,
  runConfiguredConnectors,
  type ConnectorOutcome,
  type RunConfiguredOptions,
} from './run-configured.js';

// Recorded sources (`oaa run --record` / `--replay`)
export {
  HAR_CREATOR,
  HarRecorder,
  SCRUBBED,
  readHar,
  recordingFetch,
  replayFetch,
  type Har,
  type HarContent,
  type HarCookie,
  type HarCreator,
  type HarEntry,
  type HarLog,
  type HarNameValue,
  type HarPostData,
  type HarRecorderOptions,
  type HarRequest,
  type HarResponse,
  type HarScrub,
  type HarTimings,
  type ReplayFetchOptions,
} from './har/index.js';

// The connector acceptance kit (`oaa plugins test`; `runAcceptance` in `@oaakit/runner/testing`)
export { runAcceptanceChecks } from './acceptance/run-acceptance.js';
export { formatAcceptanceReport } from './acceptance/format.js';
export { readAcceptanceBounds } from './acceptance/plugin-bounds.js';
export {
  ACCEPTANCE_CHECKS,
  type AcceptanceCheckName,
  type AcceptanceCheckResult,
  type AcceptanceOptions,
  type AcceptanceReport,
  type ExtractDetails,
} from './acceptance/types.js';

// The scheduled daemon (`oaa daemon`)
export { type DaemonSettings, type DaemonSettingsInput } from './config/daemon-schema.js';
export { DAEMON_ERROR_CODES, type DaemonErrorCode } from './daemon/daemon-codes.js';
export {
  startDaemon,
  type Daemon,
  type ReloadOutcome,
  type StartDaemonOptions,
  type StopOutcome,
} from './daemon/daemon.js';
export type { ConnectorHealth, HealthReport } from './daemon/health.js';
export {
  checkScheduledConnectors,
  isScheduled,
  reloadDaemonConfig,
  type ScheduledEntry,
} from './daemon/daemon-config.js';
export {
  startStatusServer,
  type StatusResponse,
  type StatusServer,
  type StatusServerOptions,
} from './daemon/status-server.js';
export type { ConnectorPhase } from './daemon/scheduler.js';
export { DAEMON_RUN_STATUSES, type DaemonRunStatus, type RunRecord } from './daemon/run-record.js';

// The per-connector metrics the daemon and the fleet's workers both serve
export { ConnectorMetrics, type ConnectorRunOutcome } from './connector-metrics.js';

// The plugin scaffold (`oaa plugins new`) and plugin discovery (`oaa plugins list`)
export { SCAFFOLD_ERROR_CODES, type ScaffoldErrorCode } from './scaffold/scaffold-codes.js';
export { pluginNames, type PluginNames } from './scaffold/plugin-name.js';
export { createPlugin, type CreatePluginOptions, type CreatedPlugin } from './scaffold/create-plugin.js';
export { type OaakitSource } from './scaffold/oaakit-dependencies.js';
export {
  discoverPlugins,
  type DiscoverPluginsOptions,
  type DiscoveredPlugin,
  type PluginOrigin,
} from './scaffold/discover-plugins.js';
