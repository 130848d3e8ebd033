/**
 * Throwaway Redmine instances for tests, from Debian's `redmine` and `redmine-sqlite` packages
 * (installed by `scripts/setup-system.sh`). Each instance has its own SQLite database and files in a
 * temporary directory of this harness, listens on 127.0.0.1 only on a random port, and dies with
 * the test process (`setpriv --pdeathsig KILL`).
 *
 * Debian's Redmine is multi-tenant: an instance is a directory under `/var/lib/redmine/<name>`
 * chosen by `REDMINE_INSTANCE`. The harness links such a name to its temporary directory, so it
 * needs root (as the CI and the packages' install do). Migrating a fresh database and loading the
 * default data (roles, trackers, statuses) takes 10 s or more, so it is done once per machine and
 * Redmine version into a snapshot file, which every instance copies.
 *
 * @example
 * const redmine = await startRedmine();
 * afterAll(() => redmine.stop());
 * const users = await redmine.request('GET', '/users.json');
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  access,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Every directory this harness makes starts so; the sweep removes only such directories. */
const DIR_PREFIX = 'oaakit-redmine-';
/** In each such directory: the pid of the test process that made it. */
const PID_FILE = 'owner.pid';
/** Where Debian's Redmine looks for instances, and where its code is. */
const INSTANCES = '/var/lib/redmine';
const REDMINE_HOME = '/usr/share/redmine';
const DATABASE = 'redmine.sqlite3';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function requireRoot(): void {
  if (process.getuid?.() !== 0)
    throw new Error(
      `the Redmine test harness needs root: it links each instance under ${INSTANCES}, where Debian's Redmine reads them`,
    );
}

async function installedVersion(): Promise<string> {
  try {
    const { stdout } = await execFileAsync('dpkg-query', ['-W', '-f', '${Version}', 'redmine']);
    return stdout.trim();
  } catch {
    throw new Error(
      `Redmine is not installed: run scripts/setup-system.sh (Debian's redmine and redmine-sqlite)`,
    );
  }
}

/**
 * Removes what a test run killed before it could clean up left behind: this harness's directories
 * (by prefix) whose owner process is gone, and the instance links under `/var/lib/redmine` that
 * point at a directory of this harness that no longer exists. Their servers died with the run.
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
  for (const name of await readdir(INSTANCES).catch(() => [] as string[])) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const link = join(INSTANCES, name);
    const target = await readlink(link).catch(() => undefined);
    if (target === undefined || !target.startsWith(join(tmpdir(), DIR_PREFIX))) continue;
    if (
      await access(join(target, PID_FILE)).then(
        () => true,
        () => false,
      )
    )
      continue;
    await rm(link, { force: true });
    removed.push(link);
  }
  return removed;
}

/** An instance directory: config, log, tmp and files, linked as `/var/lib/redmine/<name>`. */
interface Instance {
  name: string;
  dir: string;
  remove(): Promise<void>;
}

async function makeInstance(): Promise<Instance> {
  const dir = await mkdtemp(join(tmpdir(), DIR_PREFIX));
  await writeFile(join(dir, PID_FILE), `${process.pid}\n`);
  for (const sub of ['config', 'log', 'tmp/cache', 'tmp/pids', 'files'])
    await mkdir(join(dir, sub), { recursive: true });
  await writeFile(
    join(dir, 'config/database.yml'),
    `production:\n  adapter: sqlite3\n  database: ${join(dir, DATABASE)}\n  encoding: utf8\n  timeout: 10000\n`,
  );
  await writeFile(join(dir, 'config/secret_key.txt'), randomBytes(32).toString('hex'));
  const name = dir.slice(tmpdir().length + 1);
  const link = join(INSTANCES, name);
  await symlink(dir, link);
  return {
    name,
    dir,
    async remove() {
      await rm(link, { force: true });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function instanceEnv(name: string): NodeJS.ProcessEnv {
  return { ...process.env, REDMINE_INSTANCE: name, RAILS_ENV: 'production', REDMINE_LANG: 'en' };
}

/** Runs `rake task` for the instance; rejects with its output when it fails. */
async function rake(instance: Instance, task: string): Promise<void> {
  try {
    await execFileAsync('rake', [task], {
      cwd: REDMINE_HOME,
      env: instanceEnv(instance.name),
      maxBuffer: 16 << 20,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`rake ${task} failed for a test Redmine instance:\n${stderr || stdout}`);
  }
}

/**
 * The path of a database file with Redmine's schema and its default data, made once per machine
 * and Redmine version. Made in a directory of its own and renamed into place, so test files that
 * ask at the same time each get a whole file.
 */
export async function redmineSnapshot(): Promise<string> {
  requireRoot();
  const version = await installedVersion();
  const file = join(tmpdir(), `oaakit-snapshot-redmine-${version.replace(/[^\w.+-]/g, '_')}.sqlite3`);
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    return file;
  const instance = await makeInstance();
  try {
    // Two processes: in one, the default data silently fails to load after the migration.
    await rake(instance, 'db:migrate');
    await rake(instance, 'redmine:load_default_data');
    const staged = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await copyFile(join(instance.dir, DATABASE), staged);
    await rename(staged, file);
    return file;
  } finally {
    await instance.remove();
  }
}

/** Runs SQL on an instance's database with the `sqlite3` shell (a dependency of redmine-sqlite). */
export async function sqlite(databaseFile: string, sql: string): Promise<string> {
  const child = spawn('sqlite3', ['-bail', databaseFile], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  child.stdin.end(sql);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`sqlite3 failed (${code}): ${err}`);
  return out;
}

/** A running Redmine. */
export interface RedmineServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The admin account's REST API key (sent as `X-Redmine-API-Key`). */
  readonly apiKey: string;
  /** The instance directory; its SQLite database is `redmine.sqlite3` in it. */
  readonly dir: string;
  /**
   * A REST call as the admin: the parsed JSON answer, or undefined for an empty one. Rejects with
   * the status and body when the answer is not a success.
   */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Stops the server and removes the instance. */
  stop(): Promise<void>;
}

/** Options of {@link startRedmine}. */
export interface RedmineOptions {
  /** A database file to start from, instead of the snapshot with only the default data. */
  database?: string;
  /** SQL run on the instance's copy of the database before the server starts. */
  sql?: string;
}

const LISTENING = /WEBrick::HTTPServer#start: pid=\d+ port=\d+/;
const PORT_TAKEN = /Address already in use|EADDRINUSE/;

function randomPort(): number {
  return 20_000 + Math.floor(Math.random() * 30_000);
}

async function launch(
  instance: Instance,
  port: number,
): Promise<{ child: ChildProcess; log: () => string } | { portTaken: true }> {
  const args = [
    '--pdeathsig',
    'KILL',
    '--',
    'ruby',
    '-rwebrick',
    'bin/rails',
    'server',
    '-u',
    'webrick',
    '-b',
    '127.0.0.1',
    '-p',
    String(port),
    '-e',
    'production',
    '-P',
    join(instance.dir, 'tmp/pids/server.pid'),
  ];
  const child = spawn('setpriv', args, {
    cwd: REDMINE_HOME,
    env: instanceEnv(instance.name),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const collect = (chunk: Buffer): void => {
    // Keep the start of the log for errors; drain the rest so a full pipe never blocks the server.
    if (log.length < 64 * 1024) log += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      if (!LISTENING.test(log)) return;
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      resolve({ child, log: () => log });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      if (PORT_TAKEN.test(log)) resolve({ portTaken: true });
      else reject(new Error(`Redmine exited (${signal ?? code}) before it was listening:\n${log}`));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

/** Starts a Redmine on a copy of the snapshot (or of `options.database`), with the REST API on. */
export async function startRedmine(options: RedmineOptions = {}): Promise<RedmineServer> {
  requireRoot();
  await sweepLeftovers();
  const source = options.database ?? (await redmineSnapshot());
  const instance = await makeInstance();
  const apiKey = randomBytes(20).toString('hex');
  let started: { child: ChildProcess; port: number } | undefined;
  try {
    await copyFile(source, join(instance.dir, DATABASE));
    // The REST API is off by default; the admin (user 1) gets a key. The key is hex: safe in SQL.
    await sqlite(
      join(instance.dir, DATABASE),
      `DELETE FROM settings WHERE name = 'rest_api_enabled';
       INSERT INTO settings (name, value, updated_on) VALUES ('rest_api_enabled', '1', datetime('now'));
       DELETE FROM tokens WHERE user_id = 1 AND action = 'api';
       INSERT INTO tokens (user_id, action, value, created_on, updated_on)
         VALUES (1, 'api', '${apiKey}', datetime('now'), datetime('now'));`,
    );
    if (options.sql !== undefined) await sqlite(join(instance.dir, DATABASE), options.sql);
    for (let attempt = 0; attempt < 10 && started === undefined; attempt++) {
      const port = randomPort();
      const result = await launch(instance, port);
      if (!('portTaken' in result)) started = { child: result.child, port };
    }
    if (started === undefined) throw new Error('Redmine found no free port in 10 attempts');
  } catch (error) {
    await instance.remove();
    throw error;
  }
  const { child, port } = started;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const url = `http://127.0.0.1:${port}`;
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'X-Redmine-API-Key': apiKey, 'Content-Type': 'application/json' },
      // WEBrick answers 411 to a POST or PUT without a body.
      ...(body !== undefined || method === 'POST' || method === 'PUT'
        ? { body: JSON.stringify(body ?? {}) }
        : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return (text.trim() === '' ? undefined : JSON.parse(text)) as T;
  };
  try {
    // The start line comes just before the first request is served; prove it answers as the admin.
    await request('GET', '/users/current.json');
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await instance.remove();
    throw error;
  }
  return {
    url,
    apiKey,
    dir: instance.dir,
    request,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await instance.remove();
    },
  };
}
