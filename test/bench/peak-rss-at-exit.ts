/**
 * Preloaded into the `oaa run` child by `npm run bench:run` (`node --import`): writes the process's
 * peak RSS in bytes to the file named by `OAA_BENCH_RSS_FILE` as it exits. It changes nothing else.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.OAA_BENCH_RSS_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
}
