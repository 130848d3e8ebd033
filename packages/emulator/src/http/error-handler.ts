/** Turns every error, ours or fastify's, into the spec's error body. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { ApiError, errorBody, invalidArgument } from '../errors.js';
import { targetOf } from './request-path.js';

/** Longest path parameter (an id, with its `:action`) the router accepts: fastify's default. */
export const MAX_PARAM_LENGTH = 100;

/** The body field a too-large request is blamed on, from the action at the end of the path. */
function bulkField(path: string): string {
  if (path.endsWith(':push')) return 'json_data';
  if (path.endsWith(':push_csv')) return 'csv_data';
  if (path.endsWith(':parts')) return 'data';
  if (path.endsWith(':icon')) return 'icon_base64';
  return 'body';
}

function toApiError(err: FastifyError, req: FastifyRequest, bodyLimit: number): ApiError {
  if (err instanceof ApiError) return err;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      // A route may set a smaller limit than the server's (settings, templates).
      const limit = req.routeOptions.bodyLimit ?? bodyLimit;
      const field = bulkField(targetOf(req).path);
      const advice =
        field === 'body' && limit < bodyLimit
          ? ''
          : '; send larger payloads with a multipart upload (:parts)';
      return invalidArgument([
        { field, description: `the request body exceeds the limit of ${limit} bytes${advice}` },
      ]);
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidArgument([
        { field: 'body', description: 'the request body must be JSON (Content-Type: application/json)' },
      ]);
    case 'FST_ERR_BAD_URL':
      return invalidArgument([
        {
          field: 'path',
          description:
            'the URL path holds a malformed percent-encoding: "%" must be followed by two hex digits of valid UTF-8',
        },
      ]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return invalidArgument([
        {
          field: 'path',
          description: `a path segment (an id) is longer than ${MAX_PARAM_LENGTH} characters`,
        },
      ]);
    default:
      break;
  }
  if (err instanceof SyntaxError) {
    return invalidArgument([
      { field: 'body', description: `the request body is not valid JSON: ${err.message}` },
    ]);
  }
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return invalidArgument([{ field: 'body', description: err.message }]);
  }
  return new ApiError('Internal');
}

/** Sends `err` as the spec's error body. */
export function sendError(
  ctx: EmulatorContext,
  req: FastifyRequest,
  reply: FastifyReply,
  err: ApiError,
): FastifyReply {
  return reply
    .code(err.status)
    .headers(err.headers)
    .send(errorBody(err, req.id, ctx.clock.iso()));
}

/** The fastify error handler. */
export function errorHandler(ctx: EmulatorContext, bodyLimit: number) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const apiError = toApiError(err, req, bodyLimit);
    if (apiError.status >= 500 && !(err instanceof ApiError)) {
      ctx.logger.error(
        {
          request_id: req.id,
          method: req.method,
          path: targetOf(req).path,
          err,
        },
        'unexpected error',
      );
    }
    return sendError(ctx, req, reply, apiError);
  };
}
