// The public API report of each package (api-extractor): `npm run api` rewrites
// packages/<pkg>/etc/<pkg>.api.md from the built .d.ts files, `npm run api:check` (CI) fails when
// a report differs from what is built, so a change to a package's public surface shows in review.
// Run after `npm run build`: the reports are made from dist/.
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = process.argv.includes('--local');

/** Every api-extractor config of the packages: api-extractor.json, api-extractor.<entry>.json. */
function configs() {
  const packages = join(root, 'packages');
  return readdirSync(packages).flatMap((pkg) =>
    readdirSync(join(packages, pkg))
      .filter((file) => /^api-extractor(\.[\w-]+)?\.json$/.test(file))
      .map((file) => join(packages, pkg, file)),
  );
}

let failed = 0;
for (const file of configs()) {
  const config = ExtractorConfig.loadFileAndPrepare(file);
  mkdirSync(dirname(config.reportFilePath), { recursive: true });
  const result = Extractor.invoke(config, { localBuild: local, showVerboseMessages: false });
  const report = relative(root, config.reportFilePath);
  if (!result.succeeded) {
    failed += 1;
    console.error(
      result.apiReportChanged
        ? `${report} differs from the built API: run \`npm run build && npm run api\` and commit it`
        : `${report}: api-extractor failed (${result.errorCount} errors, ${result.warningCount} warnings)`,
    );
  } else if (result.apiReportChanged) {
    console.log(`${report} updated`);
  }
}
if (failed > 0) process.exit(1);
