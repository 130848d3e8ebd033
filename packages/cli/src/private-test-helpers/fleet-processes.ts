/**
 * Processes of a fleet for tests: `oaa worker` and `oaa daemon --queue` as real child processes of
 * the built binary, their JSON log lines parsed as they come, and the waits tests need.
 */
import { until } from '@oaakit/emulator/testing';
import { spawnOaa } from './run-oaa.js';

/** A running `oaa` process of a fleet. */
export interface FleetProcess {
  pid: number;
  /** Parsed JSON log lines so far. */
  log: Record<string, unknown>[];
  stderr(): string;
  signal(name: NodeJS.Signals): void;
  /** Resolves with the exit code (null after a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** The worker's /healthz and /metrics base URL (workers only). */
  url: string;
}

/**
 * Starts `oaa ...args` in `cwd` and waits for its start line (`startEvent` in its log); `url` is
 * that line's `url`. A process that exits or does not start in time is ended, and the wait throws
 * with its stderr.
 */
export async function startFleetProcess(options: {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  startEvent: string;
}): Promise<FleetProcess> {
  const child = spawnOaa(options.args, { cwd: options.cwd, env: options.env });
  let stderr = '';
  const log: Record<string, unknown>[] = [];
  child.stdout.resume();
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const complete = stderr.lastIndexOf('\n') + 1;
    stderr += chunk;
    for (const line of stderr.slice(complete).split('\n').slice(0, -1)) {
      if (line.startsWith('{')) log.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve((exitCode = code))),
  );
  let started: Record<string, unknown>;
  try {
    started = await until(
      `oaa ${options.args[0] ?? ''} to start`,
      () => {
        if (exitCode !== undefined)
          throw new Error(`oaa ${options.args.join(' ')} exited (${exitCode}):\n${stderr}`);
        return log.find((l) => l['event'] === options.startEvent);
      },
      { intervalMs: 100, timeoutMs: 60_000, context: () => stderr },
    );
  } catch (error) {
    // A process that never started is not left running: no caller holds it yet.
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  return {
    pid: child.pid ?? 0,
    log,
    stderr: () => stderr,
    signal: (name) => child.kill(name),
    exited,
    url: typeof started['url'] === 'string' ? started['url'] : '',
  };
}

/** Ends the processes still running (SIGKILL) and waits for them. */
export async function killAll(processes: FleetProcess[]): Promise<void> {
  for (const p of processes) p.signal('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  processes.length = 0;
}
