// @oaakit/emulator: a local implementation of the service interface (fastify + SQLite).

export { startEmulator, type RunningEmulator, type StartEmulatorOptions } from './server.js';
export { DEFAULT_LIMITS, type EmulatorLimits } from './limits.js';
export { EmulatorClock, type EmulatorClockOptions } from './clock.js';
export { type EmulatorLogger } from './logger.js';
export { ROLES, type Role, type SeedKey, type ApiKeyRecord } from './auth/api-keys.js';
export { type ErrorCode, type ErrorResponseBody } from './errors.js';
export { type FaultSpec, type Fault } from './faults.js';
export { type CallRecord } from './calls.js';
export { type GraphNodeView, type GraphEdgeView, type GraphStats } from './graph/read-graph.js';
export { type DataSourceStatus } from './store/data-sources.js';
export { parseSmtpUrl, type SmtpOptions } from './mail/send-mail.js';
