import { OaaError } from '@oaakit/core';
import type { Api } from '../api.js';
import { base64Pieces, envelope } from '../body.js';
import { ServiceError, isRetryable } from '../errors.js';
import { withRetry } from '../retry.js';
import type { PushResult } from './push.js';
import type { CallOptions } from './list-options.js';
import { dataSourcePath } from './paths.js';
import type { DataSourceRef } from './paths.js';

/** Most chunks one multipart upload may have. */
export const MAX_PARTS = 99;

/** An open multipart upload. */
export interface UploadRef extends DataSourceRef, CallOptions {
  uploadId: string;
}

/** Multipart upload (`:parts`) of one data source, for payloads above the single-push limit. */
export interface PartsApi {
  /** Opens an upload session. Retried when lost: an unused session simply expires. */
  start(ref: DataSourceRef & CallOptions): Promise<{ uploadId: string }>;
  /**
   * Uploads chunk `sequenceNumber` (1..99): `data` is a raw slice of the payload bytes (the gzip
   * bytes for a compressed payload), sent base64-encoded. Retried: the same number replaces.
   */
  upload(
    input: UploadRef & { sequenceNumber: number; data: Uint8Array | readonly Uint8Array[] },
  ): Promise<Record<string, unknown>>;
  /** Assembles the chunks in sequence order and processes the payload like a push. */
  complete(input: UploadRef & { sequenceCount: number }): Promise<PushResult>;
}

/** Binds the multipart resource to a request function. */
export function partsApi(api: Api): PartsApi {
  const path = (ref: DataSourceRef): string => `${dataSourcePath(ref.providerId, ref.dataSourceId)}:parts`;
  return {
    async start(ref) {
      const res = await api.call<{ upload_id?: string }>({
        method: 'POST',
        path: path(ref),
        body: { operation: 'start' },
        signal: ref.signal,
      });
      if (typeof res.upload_id !== 'string' || res.upload_id === '') {
        throw new OaaError('the service did not return an upload_id', {
          code: 'BAD_RESPONSE',
          details: { path: path(ref) },
        });
      }
      return { uploadId: res.upload_id };
    },
    upload(input) {
      const pieces = input.data instanceof Uint8Array ? [input.data] : input.data;
      const fields = {
        operation: 'upload',
        upload_id: input.uploadId,
        sequence_number: input.sequenceNumber,
      };
      const streamBody = envelope(fields, 'data', () => base64Pieces(pieces));
      return api.call({ method: 'POST', path: path(input), streamBody, signal: input.signal });
    },
    async complete(input) {
      const request = {
        method: 'POST' as const,
        path: path(input),
        body: { operation: 'complete', upload_id: input.uploadId, sequence_count: input.sequenceCount },
        signal: input.signal,
      };
      // After an attempt whose answer was lost, a 404 means the session is gone: most likely that
      // attempt was processed, but nobody can tell, so say so instead of reporting "not found".
      let lost = false;
      const res = await withRetry(
        async () => {
          try {
            return await api.call<{ warnings?: PushResult['warnings'] | null }>(request, 'never');
          } catch (error) {
            if (lost && error instanceof ServiceError && error.status === 404) {
              throw new OaaError(
                'multipart complete: the answer was lost and the upload session is gone; the payload was probably processed',
                {
                  code: 'UPLOAD_OUTCOME_UNKNOWN',
                  cause: error,
                  details: { uploadId: input.uploadId, requestId: error.requestId },
                  hints: ['push the payload again to be sure: a push replaces the data source submission'],
                },
              );
            }
            if (isRetryable(error)) lost = true;
            throw error;
          }
        },
        { policy: api.policy, logger: api.logger, signal: input.signal },
      );
      return { warnings: res.warnings ?? [] };
    },
  };
}
