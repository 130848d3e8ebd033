// @oaakit/runner: runs connectors (pipeline, state, plugin loading, credentials). The CLI calls it.

export { RUNNER_ERROR_CODES, type RunnerErrorCode } from './codes.js';
export { REDACT_PATHS, createLogger, silentLogger, type CreateLoggerOptions, type Logger } from './logger.js';

// Config file
export {
  configJsonSchema,
  configSchema,
  connectorEntrySchema,
  targetSchema,
  type ConnectorEntry,
  type OaaConfig,
  type TargetConfig,
} from './config/schema.js';
export {
  CONFIG_FILE_NAMES,
  DEFAULT_STATE_DIR,
  findConfigFile,
  loadConfig,
  parseConfig,
  type LoadedConfig,
} from './config/load-config.js';
export {
  REFERENCE_FORMS,
  formatSecretReference,
  parseSecretReference,
  secretReferenceSchema,
  type SecretReference,
} from './config/references.js';

// Credentials and secrets
export {
  KEYCHAIN_SERVICE,
  deleteApiKey,
  deleteKeychain,
  getApiKey,
  readKeychain,
  saveApiKey,
  writeKeychain,
} from './credentials/keychain.js';
export {
  resolveTarget,
  type CredentialSource,
  type ResolveTargetOptions,
  type ResolvedTarget,
} from './credentials/resolve-target.js';
export {
  resolveSecretReference,
  resolveSecrets,
  type ResolveSecretsOptions,
  type SecretSources,
} from './credentials/secrets.js';

// Plugins
export { isPathSpec, loadPlugin, type LoadedPlugin } from './plugins/load-plugin.js';
export { assertConnector } from './plugins/check-connector.js';

// State
export { StateStore, type SnapshotWriter, type StateCommit } from './state/state-store.js';
export { STATE_FORMAT_VERSION, storedStateSchema, type StoredState } from './state/stored-state.js';
export { acquireLock, type AcquireLockOptions, type HeldLock, type LockHolder } from './state/lock.js';

// The pipeline
export { runConnector } from './pipeline/run-connector.js';
export { checkConnector, type CheckConnectorOptions, type CheckResult } from './pipeline/check-step.js';
export { DEFAULT_MAX_DELETION_SHARE } from './pipeline/diff-step.js';
export { IDENTITY_KIND, TEMPLATE_KINDS, countEntities, type EntityCounts } from './pipeline/entity-counts.js';
export {
  type DiffSummary,
  type GuardVerdict,
  type PushSettings,
  type RunConnectorOptions,
  type RunFlags,
  type RunPhase,
  type RunProgressEvent,
  type RunResult,
  type TargetRef,
} from './pipeline/run-types.js';
export {
  checkConfiguredConnector,
  type CheckConfiguredOptions,
  findConnectorEntry,
  loadConnectorPlugin,
  runConfiguredConnector,
  runConfiguredConnectors,
  type ConnectorOutcome,
  type RunConfiguredOptions,
} from './run-configured.js';

// The scheduled daemon (`oaa daemon`)
export {
  DAEMON_DEFAULTS,
  daemonSettingsSchema,
  resolveDaemonSettings,
  type DaemonSettings,
  type DaemonSettingsInput,
} from './config/daemon-schema.js';
export { DAEMON_ERROR_CODES, type DaemonErrorCode } from './daemon/daemon-codes.js';
export {
  startDaemon,
  type Daemon,
  type ReloadOutcome,
  type StartDaemonOptions,
  type StopOutcome,
} from './daemon/daemon.js';
export type { ConnectorHealth, HealthReport } from './daemon/health.js';
export { PROMETHEUS_CONTENT_TYPE } from './daemon/prometheus-text.js';
export { DAEMON_RUN_STATUSES, type DaemonRunStatus, type RunRecord } from './daemon/run-record.js';

// The plugin scaffold (`oaa plugins new`) and plugin discovery (`oaa plugins list`)
export { SCAFFOLD_ERROR_CODES, type ScaffoldErrorCode } from './scaffold/scaffold-codes.js';
export {
  MAX_PACKAGE_NAME_LENGTH,
  assertPackageName,
  packageNameProblem,
  pluginNames,
  type PluginNames,
} from './scaffold/plugin-name.js';
export {
  RUNNER_PACKAGE_ROOT,
  findPluginTemplate,
  isPluginTemplate,
  pluginTemplateCandidates,
} from './scaffold/template-dir.js';
export { createPlugin, type CreatePluginOptions, type CreatedPlugin } from './scaffold/create-plugin.js';
export { defaultOaakitSource, type OaakitSource } from './scaffold/oaakit-dependencies.js';
export {
  discoverPlugins,
  type DiscoverPluginsOptions,
  type DiscoveredPlugin,
  type PluginOrigin,
} from './scaffold/discover-plugins.js';
