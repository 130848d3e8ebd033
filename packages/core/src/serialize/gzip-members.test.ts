/**
 * Gzip made on worker threads as independent members is standard gzip. The bytes are
 * checked by node:zlib, by the `gunzip` command and by Python's `gzip` module, and they really are
 * several members (Python's zlib reports data left after the first one).
 */
import { execFile } from 'node:child_process';
import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from './json-chunks.js';
import { createPayloadStream } from './payload-stream.js';
import type { PayloadStreamOptions } from './payload-stream.js';

/** Runs `command` with `input` on stdin; resolves with its stdout. */
function run(command: string, args: string[], input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => (error ? reject(new Error(`${command} failed`, { cause: error })) : resolve(stdout)),
    );
    child.stdin!.end(input);
  });
}

const PYTHON_MEMBERS = `
import gzip, sys, zlib
data = sys.stdin.buffer.read()
members = 0
rest = data
while rest:
    d = zlib.decompressobj(31)
    d.decompress(rest)
    rest = d.unused_data
    members += 1
sys.stdout.buffer.write(str(members).encode() + b"\\n" + gzip.decompress(data))
`;

/** A payload of `users` users with varied text, about 150 bytes of JSON each. */
function payload(users: number) {
  return {
    applications: [
      {
        name: 'app',
        application_type: 'app',
        local_users: {
          *[Symbol.iterator]() {
            for (let i = 0; i < users; i++)
              yield {
                name: `user${i}`,
                identities: [`u${(i * 7919) % 100_003}@example.com`],
                is_active: i % 3 === 0,
              };
          },
        },
      },
    ],
  };
}

async function jsonOf(value: unknown): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(value)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function gzipOf(value: unknown, options: PayloadStreamOptions) {
  const { stream, counters } = createPayloadStream(value, { encoding: 'binary', ...options });
  const bytes = await buffer(stream);
  return { bytes, counters };
}

describe('gzip in members on worker threads', () => {
  it('gives standard multi-member gzip that node, gunzip and Python read whole', async () => {
    const value = payload(20_000);
    const json = await jsonOf(value);
    const { bytes, counters } = await gzipOf(value, { gzipWorkers: 2, gzipMemberBytes: 64 * 1024 });
    expect(counters.jsonBytes).toBe(json.length);
    expect(counters.compressedBytes).toBe(bytes.length);
    expect(gunzipSync(bytes).equals(json)).toBe(true);
    expect((await run('gunzip', ['-c'], bytes)).equals(json)).toBe(true);

    const python = await run('python3', ['-c', PYTHON_MEMBERS], bytes);
    const newline = python.indexOf(0x0a);
    expect(Number(python.subarray(0, newline).toString())).toBe(Math.ceil(json.length / (64 * 1024)));
    expect(python.subarray(newline + 1).equals(json)).toBe(true);
  });

  it('writes one member for an empty input and for a payload below one member', async () => {
    for (const value of [[], payload(3)]) {
      const json = await jsonOf(value);
      const { bytes } = await gzipOf(value, { gzipWorkers: 3 });
      expect(gunzipSync(bytes).equals(json)).toBe(true);
    }
  });

  it('keeps base64 output and the counters of the one-stream path', async () => {
    const value = payload(5_000);
    const single = await gzipOf(value, { encoding: 'base64' });
    const members = await gzipOf(value, { encoding: 'base64', gzipWorkers: 2, gzipMemberBytes: 16 * 1024 });
    const decode = (b: Buffer) => gunzipSync(Buffer.from(b.toString('latin1'), 'base64'));
    expect(decode(members.bytes).equals(decode(single.bytes))).toBe(true);
    expect(members.counters.jsonBytes).toBe(single.counters.jsonBytes);
    expect(members.counters.outputBytes).toBe(members.bytes.length);
  });

  it('refuses worker counts and member sizes out of bounds, naming the option', () => {
    expect(() => createPayloadStream({}, { gzipWorkers: -1 })).toThrow(
      /gzipWorkers must be an integer from 0 to 64/,
    );
    expect(() => createPayloadStream({}, { gzipWorkers: 1.5 })).toThrow(/gzipWorkers/);
    expect(() => createPayloadStream({}, { gzipWorkers: 2, gzipMemberBytes: 10 })).toThrow(
      /gzipMemberBytes must be an integer from 1024/,
    );
  });
});
