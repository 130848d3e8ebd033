/**
 * A real `redis-server` for tests (Debian's, installed by `scripts/setup-system.sh`): a free port
 * picked at random, its own temporary directory, persistence (append-only file, fsync on every write)
 * when asked, and kill / restart on the same port and directory for tests of a Redis outage.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** Options of {@link startTestRedis}. */
export interface TestRedisOptions {
  /** Append-only file with fsync on every write, so a restart keeps everything. Default false. */
  persistence?: boolean;
  /** `requirepass`: clients must give this password (the URL does not carry it). */
  password?: string;
}

/** A running test Redis; `stop()` it after. */
export interface TestRedis {
  /** `redis://127.0.0.1:PORT/0`. */
  url: string;
  port: number;
  dir: string;
  /** SIGKILL, like a crash; `start()` brings it back on the same port and data. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Ends it and removes its directory. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function answers(port: number, deadline: number, password: string | undefined): Promise<void> {
  for (;;) {
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      ...(password === undefined ? {} : { password }),
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      if ((await redis.ping()) === 'PONG') return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      redis.disconnect();
    }
  }
}

/**
 * Starts `redis-server` on a free port.
 *
 * @example
 * const redis = await startTestRedis({ persistence: true });
 * afterAll(() => redis.stop());
 */
export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.persistence ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--daemonize',
    'no',
    '--logfile',
    join(dir, 'redis.log'),
  ];
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    child.once('error', () => undefined);
    await answers(port, Date.now() + 30_000, options.password);
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    kill,
    start,
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
