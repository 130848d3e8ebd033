/**
 * `POST .../datasources/{data_source_id}:push_csv`: base64 CSV (optionally gzip), mapped to a payload
 * by the provider's `configuration_json` (see `csv/csv-config.ts` and the README), then validated and
 * ingested like a push. Problems name the CSV line and column.
 */
import { csvPushRequestSchema, normalizeCompression } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { badField, invalidArgument } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { buildApplicationPayload } from '../csv/build-app-payload.js';
import { buildHrisPayload } from '../csv/build-hris-payload.js';
import { CellReader, type Row } from '../csv/cells.js';
import { parseCsvConfigJson, type CsvConfig } from '../csv/csv-config.js';
import { CsvSyntaxError, parseCsv } from '../csv/parse-csv.js';
import { decodeBase64, gunzipField, isGzip, utf8Text } from '../push/decode.js';
import { MAX_REPORTED, processPayload, type PayloadInput } from '../push/process-payload.js';
import type { PushAnswer, PushTarget } from '../push/target.js';
import { checkBodyIds, decodePayload } from './push.js';

function csvConfigOf(target: PushTarget): CsvConfig {
  const template = target.provider.custom_template;
  if (template === 'identity_provider')
    throw badField(
      'csv_data',
      'CSV push is available for providers of template application or hris, not identity_provider',
    );
  const { config, problem } = parseCsvConfigJson(target.provider.configuration_json, template);
  if (problem) throw badField('csv_data', `the provider's configuration_json has an ${problem}`);
  if (!config) {
    throw badField(
      'csv_data',
      `provider ${target.provider.name} has no CSV column mapping: create it with a configuration_json holding {"csv": {"columns": {...}}}`,
    );
  }
  return config;
}

function buildPayload(target: PushTarget, config: CsvConfig, text: string): PayloadInput {
  let records;
  try {
    records = parseCsv(text, config.delimiter);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw badField('csv_data', err.message);
    throw err;
  }
  const headerRecord = records[0];
  if (!headerRecord) throw badField('csv_data', 'the CSV is empty: the first line must name the columns');
  const header = headerRecord.fields.map((h) => h.trim());
  const missing = [...config.columns.keys()].filter((h) => !header.includes(h));
  if (missing.length > 0) {
    throw invalidArgument(
      missing.map((h) => ({
        field: 'csv_data',
        description: `line 1: column ${JSON.stringify(h)} of the provider's mapping is missing from the header`,
      })),
    );
  }
  const cells = new CellReader(config, header);
  const rows = records
    .slice(1)
    .map((r) => cells.row(r))
    .filter((r): r is Row => r !== undefined);
  const built =
    config.template === 'application'
      ? buildApplicationPayload(rows, cells, config, target.provider.name)
      : buildHrisPayload(rows, cells, config, target.provider.name);
  if (cells.violations.length > 0) {
    const shown = cells.violations.slice(0, MAX_REPORTED);
    if (cells.violations.length > MAX_REPORTED)
      shown.push({
        field: 'csv_data',
        description: `... and ${cells.violations.length - MAX_REPORTED} more problems`,
      });
    throw invalidArgument(shown);
  }
  return {
    text: JSON.stringify(built.payload),
    field: 'csv_data',
    mapViolation: (v) => {
      const line = built.lineOf(v.field);
      return {
        field: 'csv_data',
        description: `${line === undefined ? '' : `line ${line}: `}${v.field ? `${v.field}: ` : ''}${v.description}`,
      };
    },
  };
}

/** Handles a CSV push. */
export async function handlePushCsv(
  ctx: EmulatorContext,
  target: PushTarget,
  rawBody: unknown,
): Promise<PushAnswer> {
  const body = parseBody(csvPushRequestSchema, rawBody);
  checkBodyIds(target, body);
  const config = csvConfigOf(target);
  const input = await decodePayload(ctx, target, async () => {
    let bytes = decodeBase64(body.csv_data, 'csv_data');
    if (normalizeCompression(body.compression_type) === 'GZIP' || isGzip(bytes))
      bytes = await gunzipField(bytes, 'csv_data');
    return buildPayload(target, config, utf8Text(bytes, 'csv_data'));
  });
  return processPayload(ctx, target, input);
}
