/**
 * Throwaway PostgreSQL servers for tests, from Debian's `postgresql` package (installed by
 * `scripts/setup-system.sh`). Each server has its own data directory under a temporary directory of
 * this harness, listens on 127.0.0.1 only (no Unix socket) on a random port, and dies with the test
 * process: `setpriv --pdeathsig QUIT` asks the kernel to send it SIGQUIT (immediate shutdown) when
 * its parent ends. `initdb` and `postgres` refuse to run as root, so under root both run as the
 * `postgres` account; the uid change clears the parent-death signal, hence the second `setpriv`.
 *
 * `initdb` is the slow part, so a test file makes one cluster template and every server starts from
 * a copy of it.
 *
 * @example
 * const template = await createTemplate();
 * const server = await startPgServer(template);
 * afterAll(async () => { await server.stop(); await template.remove(); });
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const execFileAsync = promisify(execFile);

/** Every directory this harness makes starts so; the sweep removes only such directories. */
const DIR_PREFIX = 'oaakit-pg-';
/** In each such directory: the pid of the test process that made it. */
const PID_FILE = 'owner.pid';
const PG_ROOT = '/usr/lib/postgresql';
const SUPERUSER = 'postgres';

/** Where the highest installed major version keeps `initdb` and `postgres`. */
export async function pgBinDir(): Promise<string> {
  let versions: string[];
  try {
    versions = await readdir(PG_ROOT);
  } catch {
    throw new Error(`no PostgreSQL under ${PG_ROOT}: run scripts/setup-system.sh (Debian's postgresql)`);
  }
  const majors = versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  if (majors.length === 0) throw new Error(`no PostgreSQL version directory under ${PG_ROOT}`);
  return join(PG_ROOT, majors[0]!, 'bin');
}

const asRoot = process.getuid?.() === 0;

async function postgresAccount(): Promise<{ uid: number; gid: number }> {
  const { stdout: uid } = await execFileAsync('id', ['-u', 'postgres']);
  const { stdout: gid } = await execFileAsync('id', ['-g', 'postgres']);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** The command line that runs `bin/<program>` as the account that may run it, dying with this process. */
function command(bin: string, program: string, args: string[]): [string, string[]] {
  const guarded = ['--pdeathsig', 'QUIT', '--', join(bin, program), ...args];
  return asRoot
    ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', 'setpriv', ...guarded]]
    : ['setpriv', guarded];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the directories left by a test run that was killed before it could clean up: only this
 * harness's (by prefix), and only those whose owner process is gone. Their servers died with it.
 */
export async function sweepLeftovers(): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let pid: number;
    try {
      pid = Number((await readFile(join(dir, PID_FILE), 'utf8')).trim());
    } catch {
      continue; // Being created right now, or not ours after all: leave it.
    }
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** A directory of this harness, marked with the pid of this process, writable by the server's account. */
async function harnessDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), DIR_PREFIX));
  await writeFile(join(dir, PID_FILE), `${process.pid}\n`);
  if (asRoot) {
    const { uid, gid } = await postgresAccount();
    await chown(dir, uid, gid);
  }
  return dir;
}

/** An initialised cluster that servers are copied from. */
export interface PgTemplate {
  /** The bootstrap superuser's password (the superuser is `postgres`). */
  readonly superuserPassword: string;
  /** @internal */
  readonly dataDir: string;
  readonly bin: string;
  /** Removes the template's directory. */
  remove(): Promise<void>;
}

/** Runs `initdb` once (UTF8, C locale, scram passwords) into a template directory. */
export async function createTemplate(): Promise<PgTemplate> {
  await sweepLeftovers();
  const bin = await pgBinDir();
  const dir = await harnessDir();
  const superuserPassword = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pwfile');
  await writeFile(pwfile, `${superuserPassword}\n`, { mode: 0o600 });
  if (asRoot) {
    const { uid, gid } = await postgresAccount();
    await chown(pwfile, uid, gid);
  }
  const dataDir = join(dir, 'data');
  // Without `--locale=C` and `-E UTF8` the encoding follows the environment and may end up SQL_ASCII.
  const [cmd, args] = command(bin, 'initdb', [
    '-D',
    dataDir,
    '-U',
    SUPERUSER,
    '-E',
    'UTF8',
    '--locale=C',
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '--no-sync',
  ]);
  try {
    await execFileAsync(cmd, args, { cwd: dir });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const { stderr } = error as { stderr?: string };
    throw new Error(`initdb failed: ${stderr ?? String(error)}`);
  }
  await rm(pwfile);
  return {
    superuserPassword,
    dataDir,
    bin,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A running server; `stop()` it after. */
export interface PgServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly superuser: string;
  readonly superuserPassword: string;
  /** With TLS: the server's self-signed certificate, to trust as the CA. */
  readonly caFile?: string;
  /** The harness directory holding the data directory; removed by `stop()`. */
  readonly dir: string;
  /** A client connected as the superuser to `database` (default `postgres`); the caller ends it. */
  connectAsSuperuser(database?: string): Promise<pg.Client>;
  /** Fast shutdown (open sessions are ended), then the data directory is removed. */
  stop(): Promise<void>;
}

const READY = 'database system is ready to accept connections';
const PORT_TAKEN = /could not bind|Address already in use|could not create any TCP\/IP sockets/;

/** Starts the server and resolves when it logs that it is ready, or rejects with what it logged. */
async function launch(
  bin: string,
  dataDir: string,
  port: number,
  extra: string[],
): Promise<{ child: ChildProcess; portTaken: false } | { portTaken: true }> {
  const [cmd, args] = command(bin, 'postgres', [
    ...extra,
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    '',
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'dynamic_shared_memory_type=mmap',
    '-c',
    'max_connections=40',
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (log.includes(READY)) {
        child.stderr.off('data', onData);
        child.off('exit', onExit);
        // Keep draining, so a full pipe never blocks the server.
        child.stderr.resume();
        resolve({ child, portTaken: false });
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      child.stderr.off('data', onData);
      if (PORT_TAKEN.test(log)) resolve({ portTaken: true });
      else reject(new Error(`postgres exited (${signal ?? code}) before it was ready:\n${log}`));
    };
    child.stderr.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

function randomPort(): number {
  // Above the usual ephemeral range's start is not needed: a clash is detected and retried.
  return 20_000 + Math.floor(Math.random() * 30_000);
}

/** A self-signed certificate for localhost and 127.0.0.1, made by `openssl`, readable by the server only. */
async function certificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'server.crt');
  const key = join(dir, 'server.key');
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
  // postgres refuses a key that others may read.
  await chmod(key, 0o600);
  if (asRoot) {
    const { uid, gid } = await postgresAccount();
    await chown(key, uid, gid);
    await chown(cert, uid, gid);
  }
  return { cert, key };
}

/** Options of {@link startPgServer}. */
export interface PgServerOptions {
  /** TLS (`ssl=on`) with a self-signed certificate; clients trust it through {@link PgServer.caFile}. */
  tls?: boolean;
}

/** Starts a server on a copy of the template. */
export async function startPgServer(template: PgTemplate, options: PgServerOptions = {}): Promise<PgServer> {
  const dir = await harnessDir();
  const dataDir = join(dir, 'data');
  // `cp -a` keeps the owner (the postgres account) and the 0700 mode postgres insists on.
  await execFileAsync('cp', ['-a', template.dataDir, dataDir]);
  const tls = options.tls ? await certificate(dir) : undefined;
  const extra =
    tls === undefined
      ? []
      : ['-c', 'ssl=on', '-c', `ssl_cert_file=${tls.cert}`, '-c', `ssl_key_file=${tls.key}`];
  let started: { child: ChildProcess; port: number } | undefined;
  try {
    for (let attempt = 0; attempt < 10 && started === undefined; attempt++) {
      const port = randomPort();
      const result = await launch(template.bin, dataDir, port, extra);
      if (!result.portTaken) started = { child: result.child, port };
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  if (started === undefined) {
    await rm(dir, { recursive: true, force: true });
    throw new Error('postgres found no free port in 10 attempts');
  }
  const { child, port } = started;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const connectAsSuperuser = async (database = 'postgres'): Promise<pg.Client> => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: SUPERUSER,
      password: template.superuserPassword,
      database,
    });
    await client.connect();
    return client;
  };
  // The log line comes before the first connection is served only by moments; prove it answers.
  const probe = await connectAsSuperuser();
  await probe.end();
  return {
    host: '127.0.0.1',
    port,
    superuser: SUPERUSER,
    superuserPassword: template.superuserPassword,
    dir,
    ...(tls !== undefined && { caFile: tls.cert }),
    connectAsSuperuser,
    async stop() {
      // SIGINT is the fast shutdown: sessions a test left open do not keep the server up.
      child.kill('SIGINT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
