import type { Api } from '../api.js';
import { base64Pieces, envelope, jsonStringPieces } from '../body.js';
import type { CompressionType, PushWarning } from '../types.js';
import type { CallOptions } from './list-options.js';
import { dataSourcePath } from './paths.js';
import type { DataSourceRef } from './paths.js';

/** The answer of a push: non-critical problems the service found (a 200 may carry them). */
export interface PushResult {
  warnings: PushWarning[];
}

/** Fields every push takes besides its data. */
export interface PushTarget extends DataSourceRef, CallOptions {
  priorityPush?: boolean;
}

/** JSON and CSV pushes to one data source. Every push is retried when safe: it replaces the data source's submission. */
export interface PushApi {
  /** `:push` with `json_data` as given: a JSON text, or base64 of gzip bytes when `compressionType` is `GZIP`. */
  json(input: PushTarget & { jsonData: string; compressionType?: CompressionType }): Promise<PushResult>;
  /**
   * `:push` of payload bytes without building one string: gzip bytes are sent base64-encoded with
   * `compression_type` `GZIP`; JSON bytes (`none`) are escaped into `json_data` with `NONE`.
   */
  bytes(
    input: PushTarget & { data: readonly Uint8Array[]; compression: 'gzip' | 'none' },
  ): Promise<PushResult>;
  /** `:push_csv`: the CSV file is sent base64-encoded in `csv_data`. */
  csv(
    input: PushTarget & {
      csv: string | Uint8Array;
      name?: string;
      type?: string;
      compressionType?: CompressionType | number;
    },
  ): Promise<PushResult>;
}

function warningsOf(res: { warnings?: PushWarning[] | null }): PushResult {
  return { warnings: res.warnings ?? [] };
}

/** Binds the push resource to a request function. */
export function pushApi(api: Api): PushApi {
  return {
    async json(input) {
      const body = {
        id: input.providerId,
        data_source_id: input.dataSourceId,
        json_data: input.jsonData,
        compression_type: input.compressionType ?? 'NONE',
        priority_push: input.priorityPush,
      };
      const path = `${dataSourcePath(input.providerId, input.dataSourceId)}:push`;
      return warningsOf(await api.call({ method: 'POST', path, body, signal: input.signal }));
    },
    async bytes(input) {
      const gzip = input.compression === 'gzip';
      const fields = {
        id: input.providerId,
        data_source_id: input.dataSourceId,
        compression_type: gzip ? 'GZIP' : 'NONE',
        priority_push: input.priorityPush,
      };
      const streamBody = envelope(fields, 'json_data', () =>
        gzip ? base64Pieces(input.data) : jsonStringPieces(input.data),
      );
      const path = `${dataSourcePath(input.providerId, input.dataSourceId)}:push`;
      return warningsOf(await api.call({ method: 'POST', path, streamBody, signal: input.signal }));
    },
    async csv(input) {
      const bytes = typeof input.csv === 'string' ? Buffer.from(input.csv, 'utf8') : input.csv;
      const body = {
        id: input.providerId,
        data_source_id: input.dataSourceId,
        csv_data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
        name: input.name,
        type: input.type,
        compression_type: input.compressionType,
        priority_push: input.priorityPush,
      };
      const path = `${dataSourcePath(input.providerId, input.dataSourceId)}:push_csv`;
      return warningsOf(await api.call({ method: 'POST', path, body, signal: input.signal }));
    },
  };
}
