/** The connector's work: stream every file, check every row, then link managers and build the payload. */
import { HrisPayloadBuilder, type ConnectorContext, type HrisPayload } from '@oaakit/core';
import type { CsvHrisConfig } from './config.js';
import { CsvInputError } from './csv/csv-input-error.js';
import type { CsvSyntaxProblem } from './csv/csv-parser.js';
import { Directory, type RowSource } from './directory.js';
import { columnName, fileRecords } from './file-records.js';
import { mapHeader, type HeaderMap } from './header-map.js';
import { assertReadable, configuredFiles } from './input-files.js';
import { Problems } from './problems.js';
import { RowReader } from './row-reader.js';
import { BooleanReader } from './values.js';

/** The context `extractEmployees` uses (the connector context has more). */
export type CsvHrisContext = Pick<
  ConnectorContext<CsvHrisConfig, never>,
  'config' | 'signal' | 'progress' | 'logger' | 'baseDir'
>;

/**
 * Reads the configured CSV files into an `hris` payload. Every problem (bad cells, duplicates,
 * unknown managers, missing columns) is collected; if there are any, one `ValidationError` lists
 * them all, each with a `field` of the form `file:line:column`. Input that cannot be read on (a
 * record over `maxRecordBytes`, a value over `maxFieldBytes`, a NUL byte, UTF-16) ends the run
 * there, with the problems found so far and that one.
 */
export async function extractEmployees(ctx: CsvHrisContext): Promise<HrisPayload> {
  const { config } = ctx;
  const files = configuredFiles(config);
  await assertReadable(files, ctx.baseDir);
  const problems = new Problems(files, config.maxErrors);
  const builder = new HrisPayloadBuilder({
    name: config.name ?? config.system.name,
    hris_type: config.hrisType,
    system: {
      id: config.system.id,
      name: config.system.name,
      ...(config.system.url === undefined ? {} : { url: config.system.url }),
      ...(config.system.idpProviders === undefined ? {} : { idp_providers: config.system.idpProviders }),
    },
  });
  const directory = new Directory(builder, problems);
  const booleans = config.booleanWords
    ? new BooleanReader(config.booleanWords.true, config.booleanWords.false)
    : new BooleanReader();
  const declared = new Set<string>();

  ctx.progress.start('rows');
  for (const file of files) {
    const rows = await readFile(file, { ctx, problems, directory, booleans, declared, builder });
    ctx.logger.info({ file, rows }, 'read CSV file');
  }
  return directory.finish();
}

interface FileRun {
  ctx: CsvHrisContext;
  problems: Problems;
  directory: Directory;
  booleans: BooleanReader;
  builder: HrisPayloadBuilder;
  /** Custom properties declared so far (files may share columns). */
  declared: Set<string>;
}

/** Streams one file into the directory; returns the number of rows read (the header excluded). */
async function readFile(file: string, run: FileRun): Promise<number> {
  const { ctx, problems, directory } = run;
  const config = ctx.config;
  let header: HeaderMap | undefined;
  let reader: RowReader | undefined;
  let source: RowSource | undefined;
  let seenHeader = false;
  let rows = 0;
  // Syntax problems are named by column, so they wait until the header is known (the first
  // batch's problems arrive with the header itself); each batch's come before its rows' problems.
  const syntax: CsvSyntaxProblem[] = [];
  const flushSyntax = () => {
    for (const p of syntax)
      problems.add({ file, line: p.line, column: columnName(header?.headers, p.fieldIndex) }, p.message);
    syntax.length = 0;
  };
  try {
    for await (const batch of fileRecords(file, ctx, (p) => void syntax.push(p))) {
      let start = 0;
      if (!seenHeader && batch.length > 0) {
        seenHeader = true;
        start = 1;
        header = mapHeader(file, batch[0]!.fields, config, problems);
        // Without its required columns no row of the file can be read.
        if (!header) break;
        for (const p of header.properties) {
          if (!run.declared.has(p.name)) run.builder.defineProperty('employee', p.name, 'STRING');
          run.declared.add(p.name);
        }
        reader = new RowReader({
          file,
          header,
          booleans: run.booleans,
          dateOrder: config.dateFormat,
          problems,
        });
        source = rowSource(file, header);
      }
      if (header) flushSyntax();
      for (let i = start; i < batch.length; i++) {
        const { line, fields } = batch[i]!;
        const row = reader!.read(line, fields);
        if (row) directory.add(row, source!, line);
      }
      rows += batch.length - start;
      ctx.progress.tick(batch.length - start);
    }
  } catch (error) {
    if (!(error instanceof CsvInputError)) throw error;
    flushSyntax();
    problems.add(
      { file, line: error.line, column: columnName(header?.headers, error.fieldIndex) },
      error.description,
    );
    // Nothing after this place can be read, and what depends on it (managers) would be noise.
    problems.throwIfAny();
  }
  flushSyntax();
  if (!seenHeader)
    problems.add({ file, line: 1, column: '*' }, 'the file is empty: the first line must be the header');
  return rows;
}

function rowSource(file: string, header: HeaderMap): RowSource {
  const name = (i: number, fallback: string) => header.headers[i] ?? fallback;
  return {
    file,
    employeeNumberColumn: name(header.index.employee_number, 'employee_number'),
    idColumn: name(header.index.id, 'id'),
    managersColumn: name(header.index.managers, 'manager'),
  };
}
