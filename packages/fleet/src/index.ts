// @oaakit/fleet: connectors on a fleet of workers, over BullMQ and Redis. The CLI calls it.

export { FLEET_ERROR_CODES, type FleetErrorCode } from './fleet-codes.js';
export {
  REDIS_KEYCHAIN_SERVICE,
  parseRedisUrl,
  redisKeychainAccount,
  resolveRedisTarget,
  type RedisPasswordSources,
  type RedisTarget,
} from './redis-url.js';
export { RedisStateBackend, type RedisStateBackendOptions } from './redis-state-backend.js';
export { RETRY_DEFAULTS, type RetrySettings, type RunJobData } from './run-jobs.js';
export { startFleetScheduler, type FleetScheduler, type FleetSchedulerOptions } from './fleet-scheduler.js';
export {
  WORKER_DEFAULTS,
  startFleetWorker,
  type FleetWorker,
  type FleetWorkerOptions,
  type RunJobResult,
} from './fleet-worker.js';
export {
  JOB_STATES,
  RunsQueue,
  type JobDetails,
  type JobState,
  type JobSummary,
  type QueueStats,
} from './jobs-admin.js';
