/** Request bodies of the push path: JSON push, CSV push and multipart upload. */
import * as z from 'zod';
import { opt, payloadString } from './primitives.js';

/**
 * `compression_type` as requests write it: `NONE` or `GZIP`, the lower-case texts, or the protobuf
 * integers (`0` = NONE, `1` = GZIP).
 */
export const compressionTypeSchema = z.union([
  z.enum(['NONE', 'GZIP', 'none', 'gzip']),
  z.literal(0),
  z.literal(1),
]);
export type CompressionType = z.infer<typeof compressionTypeSchema>;

/** Normalizes any accepted `compression_type` to `NONE` or `GZIP`; absent means NONE. */
export function normalizeCompression(value: CompressionType | null | undefined): 'NONE' | 'GZIP' {
  return value === 'GZIP' || value === 'gzip' || value === 1 ? 'GZIP' : 'NONE';
}

/** Body of `POST .../datasources/{data_source_id}:push`. */
export const pushRequestSchema = z.strictObject({
  id: z.string().min(1),
  data_source_id: z.string().min(1),
  json_data: z.string().min(1),
  compression_type: opt(compressionTypeSchema),
  priority_push: opt(z.boolean()),
});
export type PushRequest = z.infer<typeof pushRequestSchema>;

/** Response of a push, CSV push or multipart `complete`. */
export const pushResponseSchema = z.looseObject({
  warnings: opt(z.array(z.looseObject({ message: z.string() }))),
});
export type PushResponse = z.infer<typeof pushResponseSchema>;

/** Body of `POST .../datasources/{data_source_id}:push_csv`. */
export const csvPushRequestSchema = z.strictObject({
  id: opt(z.string()),
  data_source_id: opt(z.string()),
  csv_data: z.string().min(1),
  name: opt(z.string()),
  type: opt(z.string()),
  compression_type: opt(compressionTypeSchema),
  priority_push: opt(z.boolean()),
  /**
   * The identity provider's application id for last-login enrichment (the service shows this form
   * field only with the feature flag on); set on the application the CSV builds.
   */
  idp_app_id: opt(payloadString()),
});
export type CsvPushRequest = z.infer<typeof csvPushRequestSchema>;

/** Most chunks one multipart upload may have. */
export const MAX_MULTIPART_CHUNKS = 99;
const sequence = z.number().int().min(1).max(MAX_MULTIPART_CHUNKS);

/** Body of `POST .../datasources/{data_source_id}:parts`, by `operation`. */
export const multipartRequestSchema = z.discriminatedUnion('operation', [
  z.strictObject({ operation: z.literal('start') }),
  z.strictObject({
    operation: z.literal('upload'),
    upload_id: z.uuid(),
    sequence_number: sequence,
    data: z.string(),
  }),
  z.strictObject({ operation: z.literal('complete'), upload_id: z.uuid(), sequence_count: sequence }),
]);
export type MultipartRequest = z.infer<typeof multipartRequestSchema>;
