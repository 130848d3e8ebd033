/**
 * A real `redis-server` for tests (Debian's, installed by `scripts/setup-system.sh`): a free port
 * picked at random, its own temporary directory, persistence (append-only file, fsync on every write)
 * when asked, a password or TLS when asked, and kill / restart on the same port and directory for tests of a Redis outage.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const execFileAsync = promisify(execFile);

/** Options of {@link startTestRedis}. */
export interface TestRedisOptions {
  /** Append-only file with fsync on every write, so a restart keeps everything. Default false. */
  persistence?: boolean;
  /** `requirepass`: clients must give this password (the URL does not carry it). */
  password?: string;
  /**
   * TLS only (`rediss://localhost:PORT/0`), with a self-signed certificate made by `openssl` for
   * localhost and 127.0.0.1; clients trust it through {@link TestRedis.caFile} (`NODE_EXTRA_CA_CERTS`).
   */
  tls?: boolean;
}

/** A running test Redis; `stop()` it after. */
export interface TestRedis {
  /** `redis://127.0.0.1:PORT/0`, or `rediss://localhost:PORT/0` with TLS. */
  url: string;
  /** With TLS: the certificate to trust (set `NODE_EXTRA_CA_CERTS` to it). */
  caFile?: string;
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

async function answers(
  port: number,
  deadline: number,
  options: { password?: string | undefined; ca?: Buffer | undefined },
): Promise<void> {
  for (;;) {
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      ...(options.password === undefined ? {} : { password: options.password }),
      ...(options.ca === undefined ? {} : { tls: { ca: options.ca, servername: 'localhost' } }),
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

/** A self-signed certificate for localhost, made by `openssl`. */
async function certificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  await execFileAsync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-keyout',
    key,
    '-out',
    cert,
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  return { cert, key };
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
  const tls = options.tls ? await certificate(dir) : undefined;
  const listen =
    tls === undefined
      ? ['--port', String(port)]
      : ['--port', '0', '--tls-port', String(port), '--tls-cert-file', tls.cert, '--tls-key-file', tls.key];
  const args = [
    ...listen,
    ...(tls === undefined ? [] : ['--tls-auth-clients', 'no']),
    ...(options.password === undefined ? [] : ['--requirepass', options.password]),
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
    await answers(port, Date.now() + 30_000, {
      password: options.password,
      ca: tls === undefined ? undefined : await readFile(tls.cert),
    });
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
    url: tls === undefined ? `redis://127.0.0.1:${port}/0` : `rediss://localhost:${port}/0`,
    ...(tls === undefined ? {} : { caFile: tls.cert }),
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
