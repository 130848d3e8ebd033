/** The service's gRPC-style error body. */
import * as z from 'zod';
import { opt } from './primitives.js';

/** `@type` of the bad-request detail that holds `field_violations`. */
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';
/** `@type` of the user-facing detail that holds `reason`, `message` and `resolution`. */
export const USER_FACING_TYPE = 'type.googleapis.com/google.rpc.UserFacingErrorInfo';

export const fieldViolationSchema = z.looseObject({ field: z.string(), description: z.string() });

export const errorDetailSchema = z.looseObject({
  '@type': z.string(),
  field_violations: opt(z.array(fieldViolationSchema)),
  reason: opt(z.string()),
  metadata: opt(z.record(z.string(), z.string())),
  message: opt(z.string()),
  resolution: opt(z.string()),
});

/** Error response body: `code` such as `InvalidArgument`, and details. */
export const errorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  request_id: opt(z.string()),
  timestamp: opt(z.string()),
  details: opt(z.array(errorDetailSchema)),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
