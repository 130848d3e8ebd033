/**
 * The emulator in a process of its own (the built `oaa-emulator` bin), for tests and benchmarks that
 * measure a process's memory or must not share one with the emulator.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createEmulatorAdmin } from './admin.js';
import type { EmulatorAdmin } from './admin.js';

const BIN = fileURLToPath(new URL('../bin.js', import.meta.url));

/** A running emulator process; `close()` it after. */
export interface EmulatorProcess {
  url: string;
  /** An admin key seeded at start; the admin controls use it too. */
  apiKey: string;
  pid: number;
  admin: EmulatorAdmin;
  /** `OAA_URL` and `OAA_API_KEY` for a child process. */
  env: { OAA_URL: string; OAA_API_KEY: string };
  /** The process's peak resident set size so far (VmHWM), in MB; Linux only. */
  peakRssMb(): Promise<number>;
  /** Stops the process (SIGTERM) and removes its temporary database. */
  close(): Promise<void>;
}

/** The peak resident set size of process `pid` (VmHWM from /proc), in MB. */
export async function peakRssMbOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb[1]) / 1024;
}

/**
 * Starts `oaa-emulator` on port 0 with a database file in a new temporary directory and a fresh
 * admin key; resolves once it printed its URL, rejects if it exits first.
 *
 * @example
 * const emu = await startEmulatorProcess();
 * try { ... await emu.peakRssMb() ... } finally { await emu.close(); }
 */
export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-process-'));
  const apiKey = `oaa_test_${randomBytes(16).toString('hex')}`;
  const child = spawn(
    process.execPath,
    [BIN, '--port', '0', '--db', join(dir, 'emulator.db'), '--api-key', apiKey],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const died = exited.then(([code]) => {
      throw new Error(`oaa-emulator exited with ${String(code)} before printing its URL`);
    });
    died.catch(() => undefined); // read by the race below; exiting later is close()'s business
    let url: string | undefined;
    while (url === undefined) {
      const next = await Promise.race([lines.next(), died]);
      if (next.done) throw new Error('oaa-emulator closed its output before printing its URL');
      url = /https?:\/\/[^\s)]+/.exec(next.value)?.[0];
    }
    child.stdout.resume();
    const pid = child.pid!;
    return {
      url,
      apiKey,
      pid,
      admin: createEmulatorAdmin({ url, adminKey: apiKey }),
      env: { OAA_URL: url, OAA_API_KEY: apiKey },
      peakRssMb: () => peakRssMbOf(pid),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
