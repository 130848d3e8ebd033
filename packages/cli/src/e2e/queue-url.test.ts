/**
 * A queue URL the fleet commands cannot use is refused as QUEUE_URL_INVALID (exit 64) with what is
 * wrong, never showing the password. Nothing connects: the URL is refused before any Redis is asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorJson } from '../output/render-error.js';
import { json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

let work: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  work = await tempDir('oaa-cli-queue-url-');
});

afterAll(async () => {
  await work.remove();
});

describe('a queue URL that is not valid', () => {
  it('a password that is not valid percent-encoding: QUEUE_URL_INVALID, exit 64, the password not shown', async () => {
    const url = 'redis://:hunter%zz22@127.0.0.1:6379/0';
    const text = await oaa(['jobs', 'list', '--queue', url], { cwd: work.dir });
    expect(text.code).toBe(64);
    expect(text.stderr).toMatch(
      /^Error: --queue: the password in the URL is not valid percent-encoding: each % must start an escape such as %40; write a % itself as %25$/m,
    );
    expect(text.stderr).toMatch(/^Hint: write it as redis:\/\/HOST:PORT\[\/DB\]/m);
    expect(text.stdout + text.stderr).not.toContain('hunter');

    const asJson = await oaa(['jobs', 'stats', '--queue', url, '--json'], { cwd: work.dir });
    expect(asJson.code).toBe(64);
    expect(json<{ error: ErrorJson }>(asJson).error).toMatchObject({
      code: 'QUEUE_URL_INVALID',
      exitCode: 64,
      message: expect.stringContaining('the password in the URL is not valid percent-encoding') as string,
    });
    expect(asJson.stdout + asJson.stderr).not.toContain('hunter');
  });
});
