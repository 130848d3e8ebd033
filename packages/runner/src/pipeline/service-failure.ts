/**
 * A call to the service that failed during a run, as an error whose code says what to fix: the
 * provider or data source names of the connector (`TARGET_REFUSED`), the payload (`PAYLOAD_REFUSED`),
 * the API key (`CREDENTIALS_REFUSED`), or none of them (`PUSH_FAILED`: the network, a timeout, the
 * service itself). The service's field violations and request id stay at the top of the details.
 */
import { ServiceError } from '@oaakit/client';
import type { OaaError, OaaErrorCode } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { RunScope } from './run-scope.js';
import { wrapCause } from './wrap-cause.js';

/** The calls of a run: finding or creating the provider and data source, or the push itself. */
export type ServiceStep = 'target' | 'push';

const UNCHANGED = 'the state is unchanged: the next run pushes again';

interface Classified {
  code: OaaErrorCode;
  message: string;
  hints: string[];
  /**
   * Whether the service's own resolution is worth showing too. "See the error details" is no help
   * once the details are printed, nor is "send a valid bearer header" to whoever runs a connector:
   * the caller knows where the key came from and says so.
   */
  serviceHints: boolean;
}

/** The code, message and hints of a refusal; undefined when the service refused nothing of ours. */
function refusal(scope: RunScope, step: ServiceStep, error: ServiceError): Classified | undefined {
  const { connectorId, options } = scope;
  const where = `provider "${options.provider}", data source "${options.dataSource}"`;
  if (error.status === 401) {
    return {
      code: RUNNER_ERROR_CODES.CREDENTIALS_REFUSED,
      message: `connector "${connectorId}": the service refused the API key (pushing to ${where})`,
      hints: [],
      serviceHints: false,
    };
  }
  if (error.status === 403) {
    return {
      code: RUNNER_ERROR_CODES.CREDENTIALS_REFUSED,
      message: `connector "${connectorId}": the role of the API key does not allow this call (pushing to ${where})`,
      hints: [],
      serviceHints: false,
    };
  }
  if (error.status !== 400) return undefined;
  const serviceHints = error.violations.length === 0;
  if (step === 'push') {
    return {
      code: RUNNER_ERROR_CODES.PAYLOAD_REFUSED,
      message: `connector "${connectorId}": the service refused the payload pushed to ${where}`,
      hints: ["the service's field violations say what to change in the connector's output"],
      serviceHints,
    };
  }
  // The data-source calls are the provider's sub-resources: `/providers/custom/{id}/datasources...`.
  const dataSource = error.path.includes('/datasources');
  const key = dataSource ? 'dataSource' : 'provider';
  return {
    code: RUNNER_ERROR_CODES.TARGET_REFUSED,
    message: `connector "${connectorId}": the service refused the ${dataSource ? `data source "${options.dataSource}"` : `provider "${options.provider}"`}`,
    hints: [
      `change \`${key}\` of connector "${connectorId}" in the config file to a value the service accepts`,
    ],
    serviceHints,
  };
}

/**
 * The error a run ends with when `cause` was thrown by a call of `step`. Refusals name what to fix;
 * the service's own resolution is kept as a hint unless the violations or the caller say more.
 */
export function serviceFailure(scope: RunScope, step: ServiceStep, cause: unknown): OaaError {
  const { connectorId, options } = scope;
  const refused = cause instanceof ServiceError ? refusal(scope, step, cause) : undefined;
  const classified: Classified = refused ?? {
    code: RUNNER_ERROR_CODES.PUSH_FAILED,
    message: `connector "${connectorId}": pushing to provider "${options.provider}", data source "${options.dataSource}" failed`,
    hints: [],
    serviceHints: true,
  };
  return wrapCause(cause, {
    code: classified.code,
    message: classified.message,
    details: {
      connectorId,
      provider: options.provider,
      dataSource: options.dataSource,
      step,
      ...(cause instanceof ServiceError ? { status: cause.status } : {}),
    },
    hints: classified.hints,
    causeHints: classified.serviceHints,
    trailingHints: [UNCHANGED],
  });
}
