/**
 * `POST .../datasources/{data_source_id}:push_csv`: base64 CSV (optionally gzip), mapped to a payload
 * by the provider's `configuration_json` (see `csv/csv-config.ts` and the README), then validated and
 * ingested like a push. Problems name the CSV line and column. The CSV is read as a stream, row by
 * row, within the limits of push/limits.ts (rows, bytes, record length).
 */
import { csvPushRequestSchema, normalizeCompression } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { badField, invalidArgument } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { buildApplicationPayload, type BuiltPayload } from '../csv/build-app-payload.js';
import { buildHrisPayload } from '../csv/build-hris-payload.js';
import type { CellReader } from '../csv/cells.js';
import { parseCsvConfigJson, type CsvConfig } from '../csv/csv-config.js';
import { readCsvRows } from '../csv/csv-rows.js';
import { csvText } from '../csv/csv-text.js';
import { CsvSyntaxError, readCsvRecords } from '../csv/parse-csv.js';
import { decodeBase64, isGzip, textPieces } from '../push/decode.js';
import { oneAtATime } from '../push/payload-gate.js';
import { MAX_REPORTED, processPayload, type PayloadInput } from '../push/process-payload.js';
import { readPayload } from '../push/read-payload.js';
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

async function buildPayload(
  target: PushTarget,
  config: CsvConfig,
  text: AsyncIterable<string>,
  idpAppId: string | null | undefined,
): Promise<PayloadInput> {
  const records = readCsvRecords(text, config.delimiter);
  let built: BuiltPayload;
  let cells: CellReader;
  try {
    const csv = await readCsvRows(records, config, MAX_REPORTED);
    cells = csv.cells;
    built =
      config.template === 'application'
        ? await buildApplicationPayload(csv.rows, cells, config, target.provider.name)
        : await buildHrisPayload(csv.rows, cells, config, target.provider.name);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw badField('csv_data', err.message);
    throw err;
  } finally {
    // Stops reading (and inflating) the CSV when the build ended early.
    await records.return(undefined);
  }
  if (cells.violations.length > 0) {
    const shown = [...cells.violations];
    if (cells.omitted > 0)
      shown.push({ field: 'csv_data', description: `... and ${cells.omitted} more problems` });
    throw invalidArgument(shown);
  }
  // The form field `idp_app_id` (last-login enrichment) goes on the one application the CSV builds.
  const [app] = (built.payload.applications as Record<string, unknown>[] | undefined) ?? [];
  if (idpAppId && app) app.idp_app_id = idpAppId;
  const json = JSON.stringify(built.payload);
  return {
    read: await readPayload(textPieces(json), { template: config.template, field: 'csv_data' }),
    field: 'csv_data',
    mapViolation: (v) => {
      const line = built.lineOf(v.field);
      return {
        field: 'csv_data',
        description: `${line === undefined ? '' : `line ${line}: `}${v.field ? `${v.field}: ` : ''}${v.description}`,
      };
    },
    locateWarning: (v) => {
      const line = built.lineOf(v.field);
      return `csv_data${line === undefined ? '' : ` line ${line}`}${v.field ? `, ${v.field}` : ''}`;
    },
  };
}

/** Handles a CSV push: its CSV is read and processed when no other payload is. */
export async function handlePushCsv(
  ctx: EmulatorContext,
  target: PushTarget,
  rawBody: unknown,
): Promise<PushAnswer> {
  const body = parseBody(csvPushRequestSchema, rawBody);
  checkBodyIds(target, body);
  const config = csvConfigOf(target);
  if (body.idp_app_id && config.template !== 'application')
    throw badField('idp_app_id', 'is only for CSV pushes that build an application (template application)');
  return oneAtATime(ctx, async () => {
    const input = await decodePayload(ctx, target, async () => {
      const bytes = decodeBase64(body.csv_data, 'csv_data');
      const gzip = normalizeCompression(body.compression_type) === 'GZIP' || isGzip(bytes);
      return buildPayload(target, config, csvText(bytes, gzip), body.idp_app_id);
    });
    return processPayload(ctx, target, input);
  });
}
