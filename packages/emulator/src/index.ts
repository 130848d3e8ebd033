// @oaakit/emulator: a local implementation of the service interface (fastify + SQLite).

export {
  startEmulator,
  DEFAULT_UPLOAD_SESSION_TTL_MS,
  type RunningEmulator,
  type StartEmulatorOptions,
} from './server.js';
export { EmulatorClock, type EmulatorClockOptions } from './clock.js';
export { type EmulatorLogger } from './logger.js';
export { ROLES, type Role, type SeedKey, type ApiKeyRecord } from './auth/api-keys.js';
export { type ErrorCode, type ErrorResponseBody, RESOURCE_INFO_TYPE } from './errors.js';
export { type FaultSpec, type Fault } from './faults.js';
export { type CallRecord } from './calls.js';
export { MAX_BODY_BYTES } from './http/error-handler.js';
export {
  MAX_PAYLOAD_BYTES,
  MAX_INFLATE_RATIO,
  MIN_INFLATE_ALLOWANCE,
  MAX_CSV_BYTES,
  MAX_CSV_ROWS,
  MAX_CSV_RECORD_BYTES,
} from './push/limits.js';
export { CSV_FIELDS, DEFAULT_FALSE_VALUES, DEFAULT_TRUE_VALUES } from './csv/csv-config.js';
export { type GraphNodeView, type GraphEdgeView, type GraphStats } from './graph/read-graph.js';
export { type DataSourceStatus } from './store/data-sources.js';
