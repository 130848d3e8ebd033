/**
 * Throwaway OpenLDAP servers for tests, from Debian's `slapd` (installed by
 * `scripts/setup-system.sh`). Each server runs `fixtures/openldap/slapd.conf` with an mdb database
 * in a temporary directory of this harness, listens on 127.0.0.1 only, with ldap:// and ldaps://
 * on random ports (StartTLS on the first), a fresh self-signed certificate, and dies with the test
 * process: `setpriv --pdeathsig TERM` asks the kernel to stop it when its parent ends.
 *
 * slapd runs in the foreground with `-d 32768`, which logs only what is always logged: the line
 * "slapd starting", and why it stopped (a port taken, a bad config).
 *
 * @example
 * const server = await startSlapd();
 * afterAll(() => server.stop());
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from 'ldapts';

const execFileAsync = promisify(execFile);

/** Every directory this harness makes starts so; the sweep removes only such directories. */
const DIR_PREFIX = 'oaakit-slapd-';
/** In each such directory: the pid of the test process that made it. */
const PID_FILE = 'owner.pid';
const FIXTURES = fileURLToPath(new URL('../../fixtures/openldap/', import.meta.url));

/** The suffix of the fixture directory, its administrator (rootdn) and the connector's bind account. */
export const SUFFIX = 'dc=corp,dc=example';
export const ROOT_DN = `cn=admin,${SUFFIX}`;
export const READER_DN = `cn=oaa-reader,ou=services,${SUFFIX}`;

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

/** A directory of this harness, marked with the pid of this process. */
async function harnessDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), DIR_PREFIX));
  await writeFile(join(dir, PID_FILE), `${process.pid}\n`);
  return dir;
}

/**
 * A self-signed certificate for localhost and 127.0.0.1 made by `openssl`, in `dir` as
 * `<name>.crt` and `<name>.key`. Also the "wrong CA" of the tests: one that signed nothing here.
 */
export async function selfSignedCertificate(
  dir: string,
  name = 'server',
): Promise<{ cert: string; key: string }> {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
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

/** Options of {@link startSlapd}. */
export interface SlapdOptions {
  /** The bind account's `limits` line (paged searches without a total); default true. */
  readerLimits?: boolean;
  /** The dynlist overlay (the transitive dgMemberOf of the truth tests); default true. */
  dynlist?: boolean;
  /** More lines for the database section, e.g. `security simple_bind=128` (TLS for binds). */
  databaseLines?: string[];
}

/** A running server; `stop()` it after. */
export interface SlapdServer {
  /** `ldap://127.0.0.1:PORT` (StartTLS offered). */
  readonly url: string;
  /** `ldaps://127.0.0.1:PORT`. */
  readonly ldapsUrl: string;
  /** The server's self-signed certificate, to trust as the CA. */
  readonly caFile: string;
  readonly rootDn: string;
  readonly rootPassword: string;
  /** The harness directory; removed by `stop()`. */
  readonly dir: string;
  /** A client over ldaps:// that trusts the server's certificate, not bound yet; the caller unbinds it. */
  client(): Client;
  /** A client bound as the administrator (rootdn); the caller unbinds it. */
  adminClient(): Promise<Client>;
  /** Adds the entries of `ldif` as the administrator, with `ldapadd`. */
  ldapAdd(ldif: string): Promise<void>;
  /** Applies the changes of `ldif` as the administrator, with `ldapmodify`. */
  ldapModify(ldif: string): Promise<void>;
  /** Stops the server (SIGTERM, then waits for it to exit) and removes its directory. */
  stop(): Promise<void>;
}

const STARTED = 'slapd starting';
const PORT_TAKEN = /Address already in use/;

/** Starts slapd and resolves when it logs that it is starting, or rejects with what it logged. */
async function launch(
  config: string,
  port: number,
  tlsPort: number,
): Promise<{ child: ChildProcess; log: () => string; portTaken: false } | { portTaken: true }> {
  const urls = `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${tlsPort}/`;
  const child = spawn(
    'setpriv',
    ['--pdeathsig', 'TERM', '--', 'slapd', '-f', config, '-h', urls, '-d', '32768'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (log.includes(STARTED)) {
        child.off('exit', onExit);
        // Keep reading, so a full pipe never blocks the server.
        resolve({ child, log: () => log, portTaken: false });
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      child.stderr.off('data', onData);
      if (PORT_TAKEN.test(log)) resolve({ portTaken: true });
      else reject(new Error(`slapd exited (${signal ?? code}) before it started:\n${log}`));
    };
    child.stderr.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

function randomPort(): number {
  // A clash is detected (slapd exits with "Address already in use") and retried on other ports.
  return 20_000 + Math.floor(Math.random() * 30_000);
}

/**
 * "slapd starting" comes just before slapd calls listen() on its sockets: until then a connection
 * is refused. Waits for the first rootDSE read that succeeds.
 */
async function answers(url: string, log: () => string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const client = new Client({ url, timeout: 30_000, connectTimeout: 30_000 });
    try {
      await client.search('', { scope: 'base', attributes: ['namingContexts'] });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED' || attempt >= 1000)
        throw new Error(`slapd at ${url} does not answer: ${(error as Error).message}\n${log()}`);
      await new Promise((r) => setTimeout(r, 5));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}

/** Starts a server with an empty database (the suffix entry not even). */
export async function startSlapd(options: SlapdOptions = {}): Promise<SlapdServer> {
  await sweepLeftovers();
  const dir = await harnessDir();
  try {
    await mkdir(join(dir, 'data'));
    const { cert } = await selfSignedCertificate(dir);
    const ca = await readFile(cert, 'utf8');
    const rootPassword = randomBytes(12).toString('hex');
    const passwordFile = join(dir, 'root.pw');
    await writeFile(passwordFile, rootPassword, { mode: 0o600 });
    const template = await readFile(join(FIXTURES, 'slapd.conf'), 'utf8');
    const config = join(dir, 'slapd.conf');
    await writeFile(
      config,
      template
        .replaceAll('@FIXTURES@', FIXTURES.replace(/\/$/, ''))
        .replaceAll('@DIR@', dir)
        .replaceAll('@ROOTPW@', rootPassword)
        .replaceAll('@LIMITS@', options.readerLimits === false ? '# ' : '')
        .replaceAll('@DYNLIST@', options.dynlist === false ? '# ' : '')
        .replaceAll('@DATABASE@', (options.databaseLines ?? []).join('\n')),
      { mode: 0o600 },
    );
    let started: { child: ChildProcess; port: number; tlsPort: number; log: () => string } | undefined;
    for (let attempt = 0; attempt < 10 && started === undefined; attempt++) {
      const [port, tlsPort] = [randomPort(), randomPort()];
      if (port === tlsPort) continue;
      const result = await launch(config, port, tlsPort);
      if (!result.portTaken) started = { child: result.child, port, tlsPort, log: result.log };
    }
    if (started === undefined) throw new Error('slapd found no free ports in 10 attempts');
    const { child, port, tlsPort, log } = started;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    const url = `ldap://127.0.0.1:${port}`;
    const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`;
    try {
      await answers(url, log);
    } catch (error) {
      child.kill('SIGTERM');
      await exited;
      throw error;
    }
    const client = (): Client => new Client({ url: ldapsUrl, timeout: 60_000, tlsOptions: { ca } });
    const ldif = async (tool: 'ldapadd' | 'ldapmodify', text: string): Promise<void> => {
      await new Promise<void>((resolve, reject) => {
        // Over ldaps://, so that a server that requires TLS for binds is loaded the same way.
        const p = spawn(tool, ['-x', '-H', ldapsUrl, '-D', ROOT_DN, '-y', passwordFile], {
          stdio: ['pipe', 'ignore', 'pipe'],
          env: { ...process.env, LDAPTLS_CACERT: cert, LDAPTLS_REQCERT: 'demand' },
        });
        let err = '';
        p.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
        p.once('error', reject);
        p.once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`${tool} failed (${code}): ${err}`)),
        );
        p.stdin.end(text);
      });
    };
    return {
      url,
      ldapsUrl,
      caFile: cert,
      rootDn: ROOT_DN,
      rootPassword,
      dir,
      client,
      async adminClient() {
        const admin = client();
        await admin.bind(ROOT_DN, rootPassword);
        return admin;
      },
      ldapAdd: (text) => ldif('ldapadd', text),
      ldapModify: (text) => ldif('ldapmodify', text),
      async stop() {
        child.kill('SIGTERM');
        await exited;
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
