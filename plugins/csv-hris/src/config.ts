/** The connector's config: the only definition of its shape (types come from it). */
import { IDP_PROVIDER_TYPES, z } from '@oaakit/core';
import { DEFAULT_MAX_FIELD_BYTES, DEFAULT_MAX_RECORD_BYTES } from './csv/csv-options.js';
import { DEFAULT_COLUMNS, FIELDS, type Field } from './fields.js';

const columnOverrides = Object.fromEntries(
  FIELDS.map((f) => {
    const column = z.string().min(1);
    // Every other field may be switched off with null; the employee number is the one thing a row needs.
    const override = f === 'employee_number' ? column.optional() : column.nullable().optional();
    return [
      f,
      override.describe(
        `column of ${f} (default: ${DEFAULT_COLUMNS[f] ?? 'none'})${f === 'employee_number' ? '' : '; null ignores it'}`,
      ),
    ];
  }),
) as Record<Field, z.ZodOptional<z.ZodNullable<z.ZodString>> | z.ZodOptional<z.ZodString>>;

const word = z.string().trim().min(1);

/** Limits stay well below what one string can hold (V8: about 512 MiB). */
const MAX_LIMIT = 256 * 1024 * 1024;

/** The config of the csv-hris connector. */
export const csvHrisConfigSchema = z.strictObject({
  files: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .describe('CSV file path, or several; each has its own header line'),
  delimiter: z
    .string()
    .length(1)
    .refine((d) => d.charCodeAt(0) <= 0x7f && d !== '"' && d !== '\r' && d !== '\n', {
      error: 'must be one ASCII character other than a quote or a line break',
    })
    .default(',')
    .describe('field delimiter, one character, e.g. "," ";" or "\\t"'),
  columns: z
    .strictObject(columnOverrides)
    .default({})
    .describe(
      'field -> column header, overriding the defaults; headers compare ignoring case, spaces and dashes',
    ),
  ignoreColumns: z
    .array(z.string().min(1))
    .default([])
    .describe('columns that are neither mapped nor turned into custom properties'),
  name: z.string().min(1).optional().describe('payload name; default: the system name'),
  hrisType: z.string().min(1).default('csv_hris').describe('hris_type of the payload'),
  system: z
    .strictObject({
      id: z.string().min(1).default('csv-hris').describe("id of the HR system (the payload's system id)"),
      name: z
        .string()
        .min(1)
        .default('CSV HR export')
        .describe("name of the HR system (the payload's system name, and its name unless name is set)"),
      url: z.string().min(1).optional().describe("URL of the HR system (the payload's system url)"),
      idpProviders: z
        .array(z.enum(IDP_PROVIDER_TYPES))
        .optional()
        .describe(
          "kinds of identity provider the HR system's employees are linked to (the payload's system idp_providers)",
        ),
    })
    .default({ id: 'csv-hris', name: 'CSV HR export' })
    .describe('the HR system the export comes from'),
  dateFormat: z
    .enum(['MDY', 'DMY'])
    .default('MDY')
    .describe('order of day and month in dates such as 03/04/2024 or 03.04.2024'),
  booleanWords: z
    .strictObject({
      true: z.array(word).min(1).describe('words read as true, e.g. ["ja", "aktiv"]'),
      false: z.array(word).min(1).describe('words read as false, e.g. ["nein", "inaktiv"]'),
    })
    .optional()
    .describe('words read as true and false, replacing the defaults; an empty value is always false'),
  maxErrors: z
    .int()
    .positive()
    .default(1000)
    .describe('at most this many problems are listed in the error (all are counted)'),
  maxRecordBytes: z
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(DEFAULT_MAX_RECORD_BYTES)
    .describe(
      'longest record (line, or lines of one record with line breaks inside quotes) in bytes; a longer one stops the run (default 1 MiB)',
    ),
  maxFieldBytes: z
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(DEFAULT_MAX_FIELD_BYTES)
    .describe('longest value in bytes; a longer one stops the run (default 64 KiB)'),
});

/** The parsed config (defaults applied). */
export type CsvHrisConfig = z.infer<typeof csvHrisConfigSchema>;
/** The config as written in a config file. */
export type CsvHrisConfigInput = z.input<typeof csvHrisConfigSchema>;
