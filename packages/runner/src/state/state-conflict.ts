/** The refusal of a commit whose run read state that another run has replaced since. */
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';

/** `STATE_CONFLICT`: the state at `location` was committed by another run after this one read it. */
export function stateConflict(connectorId: string, location: string): OaaError {
  return new OaaError(
    `the state of connector "${connectorId}" was committed by another run after this run read it; not overwriting it`,
    {
      code: RUNNER_ERROR_CODES.STATE_CONFLICT,
      retryable: true,
      details: { connectorId, location },
      hints: [
        'this happens when a run outlived its lock (a paused or partitioned worker); the next run starts from the newer state',
      ],
    },
  );
}
