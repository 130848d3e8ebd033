/** `oaa run --check`: every file is readable and its header has the columns the config needs. */
import { CsvInputError } from './csv/csv-input-error.js';
import { columnName, fileRecords, type FileContext } from './file-records.js';
import { mapHeader } from './header-map.js';
import { assertReadable, configuredFiles } from './input-files.js';
import { Problems } from './problems.js';

/** Reads only the header line of each file; throws the same errors a run would for them. */
export async function checkFiles(ctx: FileContext): Promise<void> {
  const files = configuredFiles(ctx.config);
  await assertReadable(files, ctx.baseDir);
  const problems = new Problems(files, ctx.config.maxErrors);
  for (const file of files) {
    let seen = false;
    try {
      for await (const batch of fileRecords(file, ctx)) {
        const first = batch[0];
        if (!first) continue;
        seen = true;
        mapHeader(file, first.fields, ctx.config, problems);
        break;
      }
    } catch (error) {
      // The header line itself is refused (UTF-16, a NUL byte, over a limit).
      if (!(error instanceof CsvInputError)) throw error;
      problems.add(
        { file, line: error.line, column: columnName(undefined, error.fieldIndex) },
        error.description,
      );
      continue;
    }
    if (!seen)
      problems.add({ file, line: 1, column: '*' }, 'the file is empty: the first line must be the header');
  }
  problems.throwIfAny();
}
