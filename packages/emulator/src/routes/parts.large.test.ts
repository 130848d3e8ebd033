/**
 * Opt-in (OAA_LARGE_TESTS=1): a payload of more JSON than one JavaScript string can hold (over
 * 512 MB) goes through multipart as gzip chunks, and the emulator reads it as a stream and ingests
 * every user. The test never holds the payload: it generates users, gzips them as a stream and
 * uploads each compressed chunk as it fills. Takes a few minutes, so it stays out of the default suite.
 */
import { randomBytes } from 'node:crypto';
import { constants as bufferConstants } from 'node:buffer';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server.js';

const USERS = 320_000;
/** Compressed bytes per uploaded chunk. */
const CHUNK = 16 * 1024 * 1024;
const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho'.split(
  ' ',
);

/** About 2 KB of text per user: words picked at random, so gzip shrinks it about five times. */
function note(): string {
  const bytes = randomBytes(360);
  let out = '';
  for (const b of bytes) out += `${WORDS[b % WORDS.length]} `;
  return out;
}

let emu: RunningEmulator;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-parts-large-'));
  emu = await startEmulator({ port: 0, dbPath: join(dir, 'emulator.db') });
});
afterEach(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(process.env['OAA_LARGE_TESTS'] !== '1')('multipart beyond one string', () => {
  it('ingests over 512 MB of JSON sent as gzip chunks', { timeout: 1_200_000 }, async () => {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(emu.url + path, {
        method,
        headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const provider = (
      await call('POST', '/api/v1/providers/custom', { name: 'big', custom_template: 'application' })
    ).body.value;
    const ds = (
      await call('POST', `/api/v1/providers/custom/${provider.id}/datasources`, {
        id: provider.id,
        name: 'all',
      })
    ).body.value;
    const base = `/api/v1/providers/custom/${provider.id}/datasources/${ds.id}`;
    const start = await call('POST', `${base}:parts`, { operation: 'start' });
    expect(start.status).toBe(200);
    const uploadId = start.body.upload_id as string;

    // Compressed output is uploaded chunk by chunk as it fills; the JSON is written piece by piece.
    const gz = createGzip({ level: 1 });
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    const uploads: Promise<void>[] = [];
    const upload = (data: Buffer) => {
      const n = ++seq;
      uploads.push(
        call('POST', `${base}:parts`, {
          operation: 'upload',
          upload_id: uploadId,
          sequence_number: n,
          data: data.toString('base64'),
        }).then((r) => expect(r.status).toBe(200)),
      );
    };
    gz.on('data', (b: Buffer) => {
      pending.push(b);
      pendingBytes += b.length;
      if (pendingBytes >= CHUNK) {
        upload(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      }
    });
    const ended = new Promise((resolve) => gz.on('end', resolve));
    let jsonBytes = 0;
    const write = async (text: string) => {
      jsonBytes += Buffer.byteLength(text);
      if (!gz.write(text)) await new Promise((resolve) => gz.once('drain', resolve));
      // Keep at most a couple of uploads in flight.
      if (uploads.length > 2) await uploads.shift();
    };
    await write('{"applications":[{"name":"big","application_type":"Big","local_users":[');
    for (let i = 0; i < USERS; i++) {
      const user = {
        name: `user${i}`,
        identities: [`user${i}@example.com`],
        custom_properties: { note: note() },
      };
      await write(`${i === 0 ? '' : ','}${JSON.stringify(user)}`);
    }
    await write(
      '],"local_groups":[{"name":"staff"}]}],"permissions":[{"name":"View","permission_type":["DataRead"]}],' +
        '"custom_property_definition":{"applications":[{"application_type":"Big","local_user_properties":{"note":"STRING"}}]}}',
    );
    gz.end();
    await ended;
    if (pendingBytes > 0) upload(Buffer.concat(pending));
    await Promise.all(uploads);
    expect(jsonBytes).toBeGreaterThan(bufferConstants.MAX_STRING_LENGTH);

    const done = await call('POST', `${base}:parts`, {
      operation: 'complete',
      upload_id: uploadId,
      sequence_count: seq,
    });
    expect(done.status).toBe(200);
    const stats = await call('GET', `/_emulator/graph/stats?data_source_id=${ds.id}`);
    expect(stats.status).toBe(200);
    expect(stats.body.nodes['OAA.Big.User']).toBe(USERS);
  });
});
