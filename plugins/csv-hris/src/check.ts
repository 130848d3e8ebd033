/** `oaa run --check`: every file is readable and its header has the columns the config needs. */
import type { ConnectorContext } from '@oaakit/core';
import type { CsvHrisConfig } from './config.js';
import { readCsv } from './csv/read-csv.js';
import { assertReadable, configuredFiles, filePath } from './extract.js';
import { mapHeader } from './header-map.js';
import { Problems } from './problems.js';

/** Reads only the header line of each file; throws the same errors a run would for them. */
export async function checkFiles(
  ctx: Pick<ConnectorContext<CsvHrisConfig, never>, 'config' | 'signal' | 'baseDir'>,
): Promise<void> {
  const files = configuredFiles(ctx.config);
  await assertReadable(files, ctx.baseDir);
  const problems = new Problems(files, ctx.config.maxErrors);
  for (const file of files) {
    let seen = false;
    for await (const batch of readCsv(filePath(file, ctx.baseDir), {
      delimiter: ctx.config.delimiter,
      signal: ctx.signal,
    })) {
      const first = batch[0];
      if (!first) continue;
      seen = true;
      mapHeader(file, first.fields, ctx.config, problems);
      break;
    }
    if (!seen)
      problems.add({ file, line: 1, column: '*' }, 'the file is empty: the first line must be the header');
  }
  problems.throwIfAny();
}
