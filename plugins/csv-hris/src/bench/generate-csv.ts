/**
 * Writes a synthetic HR export of any size, streamed, for the large-file test and the benchmark:
 * a manager tree (every employee reports to one of the first tenth, by number or, every third
 * row, by email), 40 departments, 25 cost centers, quoted titles with commas, CRLF line ends and
 * a custom column.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Columns of the generated file. */
export const GENERATED_HEADER =
  'employee_number,account,first_name,last_name,display_name,work_email,employment_status,active,title,department,manager,start_date,date_terminated,employment_type,cost_center,badge_id';

/** One generated row (1-based `i` of `rows`), without the line end. */
export function generatedRow(i: number, rows: number): string {
  const boss = i === 1 ? '' : String(1 + ((i * 7919) % Math.max(1, Math.floor(rows / 10))));
  const manager = boss !== '' && i % 3 === 0 ? `user${boss}@example.com` : boss;
  const active = i % 17 !== 0;
  return (
    `${i},user${i},First${i},Last${i},"Last${i}, First${i}",user${i}@example.com,${active ? 'Active' : 'Terminated'},` +
    `${active},"Engineer, level ${i % 5}",Department ${i % 40},${manager},2020-01-${String(1 + (i % 28)).padStart(2, '0')},` +
    `${active ? '' : '2024-06-30'},Full-time,CC-${i % 25},B${i}`
  );
}

/** Writes `rows` employees to `file`; resolves when the file is closed. */
export async function generateCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  let chunk = `${GENERATED_HEADER}\r\n`;
  for (let i = 1; i <= rows; i++) {
    chunk += `${generatedRow(i, rows)}\r\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'close');
}
