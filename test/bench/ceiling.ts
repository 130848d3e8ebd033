#!/usr/bin/env node
/**
 * The multipart ceiling: `npm run bench:ceiling -- --parts N [--body-bytes B]` (service URL and key
 * from OAA_URL / OAA_API_KEY; without them an emulator is started in a child process).
 *
 * Pushes, with the client, an application payload whose resources come from an async generator and
 * whose gzip bytes need exactly N multipart chunks when no request body may exceed B bytes (the
 * service allows 99 chunks of 100 MB; B is reduced so the ceiling can be reached on one machine).
 * The resources carry random text so gzip cannot shrink them much; their number is calibrated on a
 * sample first. Prints one JSON line: chunks, bytes, seconds and this process's peak RSS (VmHWM),
 * which must not grow with N: the client holds a bounded number of chunks whatever the payload.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createClient, rawBytesPerBody } from '@oaakit/client';
import { createPayloadStream } from '@oaakit/core';
import { startEmulatorProcess } from '@oaakit/emulator/testing';

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: '99' },
    'body-bytes': { type: 'string', default: String(1024 * 1024) },
  },
});
const parts = Number(values.parts);
const bodyBytes = Number(values['body-bytes']);
if (!Number.isInteger(parts) || parts < 2 || parts > 99)
  throw new Error(`--parts must be a whole number from 2 to 99, got ${values.parts}`);
if (!Number.isInteger(bodyBytes) || bodyBytes < 64 * 1024)
  throw new Error(`--body-bytes must be a whole number of at least 65536, got ${values['body-bytes']}`);

/** One resource of random text: about 470 bytes of JSON that gzip keeps at about 350. */
function resource(i: number): Record<string, string> {
  const noise = randomBytes(330).toString('base64url');
  return { name: `r${i}-${noise.slice(0, 190)}`, resource_type: 'Space', description: noise.slice(190, 440) };
}

async function* resources(n: number): AsyncGenerator<Record<string, string>> {
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 0) await Promise.resolve();
    yield resource(i);
  }
}

function payload(n: number): Record<string, unknown> {
  return {
    applications: [
      {
        name: 'ceiling',
        application_type: 'Ceiling',
        local_groups: [{ name: 'staff' }],
        local_users: [{ name: 'ann', groups: ['staff'] }],
        resources: resources(n),
      },
    ],
    permissions: [{ name: 'View', permission_type: ['DataRead'] }],
    identity_to_permissions: [
      {
        identity: 'staff',
        identity_type: 'local_group',
        application_permissions: [{ application: 'ceiling', permission: 'View', apply_to_application: true }],
      },
    ],
  };
}

/** gzip bytes of the payload with `n` resources. */
async function gzipBytes(n: number): Promise<number> {
  const { stream, counters } = createPayloadStream(payload(n), { encoding: 'binary' });
  for await (const _ of stream);
  return counters.compressedBytes;
}

/** Resources that make the gzip bytes land in the middle of the last of `parts` chunks. */
async function calibrate(): Promise<number> {
  const sample = 4000;
  const base = await gzipBytes(0);
  const perResource = ((await gzipBytes(2 * sample)) - (await gzipBytes(sample))) / sample;
  const chunk = rawBytesPerBody(bodyBytes);
  return Math.round(((parts - 0.5) * chunk - base) / perResource);
}

async function peakRssMb(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return kb ? Math.round(Number(kb[1]) / 1024) : Math.round(process.resourceUsage().maxRSS / 1024);
}

async function push(url: string, apiKey: string) {
  const count = await calibrate();
  const client = createClient({ url, apiKey, timeoutMs: 600_000 });
  const { provider } = await client.providers.findOrCreate({ name: 'ceiling', template: 'application' });
  const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'ceiling' });
  const started = process.hrtime.bigint();
  const result = await client.pushPayload({
    providerId: provider.id,
    dataSourceId: dataSource.id,
    payload: payload(count),
    maxBodyBytes: bodyBytes,
  });
  const push_s = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    parts,
    body_bytes: bodyBytes,
    resources: count,
    chunks: result.chunks,
    push_mode: result.mode,
    json_bytes: result.jsonBytes,
    gzip_bytes: result.compressedBytes,
    push_s: Math.round(push_s * 1000) / 1000,
    peak_rss_mb: await peakRssMb(),
    data_source_id: dataSource.id,
    node: process.version,
  };
}

async function main() {
  const url = process.env['OAA_URL'];
  const apiKey = process.env['OAA_API_KEY'];
  if (url && apiKey) {
    process.stdout.write(`${JSON.stringify(await push(url, apiKey))}\n`);
    return;
  }
  const emulator = await startEmulatorProcess();
  try {
    const result = await push(emulator.url, emulator.apiKey);
    const emulator_peak_rss_mb = Math.round(await emulator.peakRssMb());
    process.stdout.write(`${JSON.stringify({ ...result, emulator_peak_rss_mb })}\n`);
  } finally {
    await emulator.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`ceiling bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
