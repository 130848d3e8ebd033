/**
 * A state backend that records, in every commit of a run, the id of the job that ran it (entry
 * `last-job`). The commit is atomic, so `last-job` names a job exactly when that job's run committed
 * its state: a job run again after its run committed (its worker lost Redis between the commit and
 * marking the job done, or died there) is recognized and not run twice.
 */
import type {
  BackendLockOptions,
  EntryCommit,
  EntryWriter,
  HeldLock,
  StateBackend,
  VersionedEntry,
} from '@oaakit/runner';

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

/** `inner`, with `last-job` set to `jobId` by every commit. */
export class JobScopedBackend implements StateBackend {
  constructor(
    private readonly inner: StateBackend,
    private readonly jobId: string,
  ) {}

  locationOf(connectorId: string, name?: string): string {
    return this.inner.locationOf(connectorId, name);
  }
  connectors(): Promise<string[]> {
    return this.inner.connectors();
  }
  names(connectorId: string): Promise<string[]> {
    return this.inner.names(connectorId);
  }
  read(connectorId: string, name: string): Promise<VersionedEntry> {
    return this.inner.read(connectorId, name);
  }
  open(connectorId: string, name: string): Promise<EntryWriter> {
    return this.inner.open(connectorId, name);
  }
  commit(connectorId: string, commit: EntryCommit): Promise<string> {
    return this.inner.commit(connectorId, {
      ...commit,
      put: [...commit.put, { name: LAST_JOB_ENTRY, data: Buffer.from(this.jobId) }],
    });
  }
  lock(connectorId: string, options: BackendLockOptions): Promise<HeldLock> {
    return this.inner.lock(connectorId, options);
  }
  sweep(connectorId: string): Promise<void> {
    return this.inner.sweep(connectorId);
  }
  reset(connectorId: string): Promise<boolean> {
    return this.inner.reset(connectorId);
  }
}
