/**
 * A state backend that records, in every commit of a run, the id of the job that ran it (entry
 * `last-job`). The commit is atomic, so `last-job` names a job exactly when that job's run committed
 * its state: a job run again after its run committed (its worker lost Redis between the commit and
 * marking the job done, or died there) is recognized and not run twice.
 */
import type { Redis } from 'ioredis';
import type { EntryCommit, StateBackend } from '@oaakit/runner';
import { RedisStateBackend } from './redis-state-backend.js';
import type { RedisStateBackendOptions } from './redis-state-backend.js';

/** Entry naming the job of the last committed run. */
export const LAST_JOB_ENTRY = 'last-job';

/** Whether the run of `jobId` has already committed the state of `connectorId`. */
export async function jobCommitted(
  backend: StateBackend,
  connectorId: string,
  jobId: string,
): Promise<boolean> {
  const { data } = await backend.read(connectorId, LAST_JOB_ENTRY);
  return data !== undefined && data.toString('utf8') === jobId;
}

/** The fleet's state in Redis as one job's run sees it: every commit also sets `last-job` to `jobId`. */
export class JobScopedBackend extends RedisStateBackend {
  constructor(
    redis: Redis,
    private readonly jobId: string,
    options: RedisStateBackendOptions = {},
  ) {
    super(redis, options);
  }

  override commit(connectorId: string, commit: EntryCommit): Promise<string> {
    return super.commit(connectorId, {
      ...commit,
      put: [...commit.put, { name: LAST_JOB_ENTRY, data: Buffer.from(this.jobId) }],
    });
  }
}
