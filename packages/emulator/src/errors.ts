/**
 * The service's gRPC-style error bodies. Every error the emulator answers with is an `ApiError`; the
 * server's error handler turns it into `{ code, message, request_id, timestamp, details }`.
 */
import { BAD_REQUEST_TYPE, OaaError, USER_FACING_TYPE, type Violation } from '@oaakit/core';

/** The `code` values the emulator answers with (`ResourceExhaused` is the spec's spelling). */
export type ErrorCode =
  | 'InvalidArgument'
  | 'Unauthenticated'
  | 'PermissionDenied'
  | 'NotFound'
  | 'ResourceExhaused'
  | 'Unavailable'
  | 'DeadlineExceeded'
  | 'Internal';

interface CodeInfo {
  status: number;
  message: string;
  reason: string;
  userMessage: string;
  resolution: string;
}

const CODES: Record<ErrorCode, CodeInfo> = {
  InvalidArgument: {
    status: 400,
    message: 'Invalid Arguments',
    reason: 'INVALID_ARGUMENTS',
    userMessage: 'Request includes invalid arguments.',
    resolution: 'Reference error details for the exact field violations.',
  },
  Unauthenticated: {
    status: 401,
    message: 'Unauthenticated',
    reason: 'UNAUTHENTICATED',
    userMessage: 'The request does not carry valid credentials.',
    resolution: 'Send a valid API key as "Authorization: Bearer <API_KEY>".',
  },
  PermissionDenied: {
    status: 403,
    message: 'Permission Denied',
    reason: 'PERMISSION_DENIED',
    userMessage: 'The API key does not have permission for this operation.',
    resolution: 'Use an API key with a role that allows this operation.',
  },
  NotFound: {
    status: 404,
    message: 'Not Found',
    reason: 'NOT_FOUND',
    userMessage: 'Requested resource was not found.',
    resolution: '',
  },
  ResourceExhaused: {
    status: 429,
    message: 'Resource Exhausted',
    reason: 'RESOURCE_EXHAUSTED',
    userMessage: 'Too many requests.',
    resolution: 'Wait one minute and retry.',
  },
  Unavailable: {
    status: 503,
    message: 'Service Unavailable',
    reason: 'UNAVAILABLE',
    userMessage: 'The service is temporarily unavailable.',
    resolution: 'Retry the request later.',
  },
  DeadlineExceeded: {
    status: 504,
    message: 'Deadline Exceeded',
    reason: 'DEADLINE_EXCEEDED',
    userMessage: 'The request took too long.',
    resolution: 'Retry the request later.',
  },
  Internal: {
    status: 500,
    message: 'Internal Server Error',
    reason: 'INTERNAL',
    userMessage: 'Internal server error.',
    resolution: 'Retry, and report the request id if the error persists.',
  },
};

/** The HTTP status the emulator uses for `code` unless told otherwise. */
export function statusOf(code: ErrorCode): number {
  return CODES[code].status;
}

/** Whether `value` is one of the codes above. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(CODES, value);
}

/** The code that a bare HTTP status stands for, for faults that name only a status. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 429) return 'ResourceExhaused';
  if (status === 502 || status === 503) return 'Unavailable';
  if (status === 504) return 'DeadlineExceeded';
  for (const [code, info] of Object.entries(CODES) as [ErrorCode, CodeInfo][])
    if (info.status === status) return code;
  return status >= 500 ? 'Internal' : 'InvalidArgument';
}

export interface ApiErrorOptions {
  status?: number;
  message?: string;
  violations?: Violation[];
  /** Overrides the user-facing detail's reason, e.g. `OAA_PUSH_FAILED`. */
  reason?: string;
  metadata?: Record<string, string>;
  resolution?: string;
  /** For NotFound: what was looked up, reported in a `ResourceInfo` detail. */
  resource?: { type: string; name: string };
  /** Extra response headers, such as `Retry-After`. */
  headers?: Record<string, string>;
}

/** An error answered to the caller in the service's error body. */
export class ApiError extends OaaError<ErrorCode> {
  readonly status: number;
  readonly errorCode: ErrorCode;
  readonly violations: Violation[];
  readonly reason: string;
  readonly metadata: Record<string, string>;
  readonly resolution: string;
  readonly userMessage: string;
  readonly resource: { type: string; name: string } | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const info = CODES[code];
    super(options.message ?? info.message, { code, retryable: info.status >= 429 });
    this.name = 'ApiError';
    this.errorCode = code;
    this.status = options.status ?? info.status;
    this.violations = options.violations ?? [];
    this.reason = options.reason ?? info.reason;
    this.metadata = options.metadata ?? {};
    this.resolution = options.resolution ?? info.resolution;
    this.userMessage = info.userMessage;
    this.resource = options.resource;
    this.headers = options.headers ?? {};
  }
}

/** 400 InvalidArgument listing every violation. */
export function invalidArgument(
  violations: Violation[],
  options: Omit<ApiErrorOptions, 'violations'> = {},
): ApiError {
  return new ApiError('InvalidArgument', { ...options, violations });
}

/** 400 InvalidArgument with one violation. */
export function badField(field: string, description: string): ApiError {
  return invalidArgument([{ field, description }]);
}

/** 404 NotFound for one resource. */
export function notFound(type: string, name: string): ApiError {
  return new ApiError('NotFound', { resource: { type, name }, message: `${type} ${name} not found` });
}

/** The JSON body of an error response. */
export interface ErrorResponseBody {
  code: string;
  message: string;
  request_id: string;
  timestamp: string;
  details: Record<string, unknown>[];
}

/** Builds the spec's error body for `err`. */
export function errorBody(err: ApiError, requestId: string, timestamp: string): ErrorResponseBody {
  const details: Record<string, unknown>[] = [];
  if (err.violations.length > 0) {
    details.push({
      '@type': BAD_REQUEST_TYPE,
      field_violations: err.violations.map((v) => ({ field: v.field, description: v.description })),
    });
  }
  if (err.resource) {
    details.push({
      '@type': RESOURCE_INFO_TYPE,
      resource_type: err.resource.type,
      resource: err.resource.name,
    });
  }
  details.push({
    '@type': USER_FACING_TYPE,
    reason: err.reason,
    metadata: err.metadata,
    message: err.userMessage,
    resolution: err.resolution,
  });
  return { code: err.errorCode, message: err.message, request_id: requestId, timestamp, details };
}

/** `@type` of the detail naming a resource that was not found. */
export const RESOURCE_INFO_TYPE = 'type.googleapis.com/google.rpc.ResourceInfo';
