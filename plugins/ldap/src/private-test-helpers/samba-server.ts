/**
 * A throwaway Active Directory domain controller for tests: Samba from Debian's `samba`,
 * `samba-ad-dc`, `samba-ad-provision` and `samba-dsdb-modules` (installed by
 * `scripts/setup-system.sh`).
 *
 * - `provisionSambaTemplate()` provisions a domain (CORP.EXAMPLE) once, into a template directory:
 *   that is the slow part.
 * - `startSambaServer(template)` copies the template and runs `samba -i -M single` on the copy, with
 *   only the LDAP service, on the loopback interface, with every directory it writes (pid, sockets,
 *   state, cache, logs) inside the copy. It serves plain LDAP (simple binds allowed without TLS) and
 *   LDAPS with its own certificate for 127.0.0.1.
 *
 * Samba's LDAP ports are fixed: 389, 636, 3268 and 3269. A test file can therefore run one server
 * at a time, and two test files using this harness must never run at once: keep every Samba-backed
 * test in one file. If another process holds one of these ports, the start fails and names it; the
 * harness never takes a port or process it did not start.
 *
 * The server dies with the test process: `setpriv --pdeathsig KILL` has the kernel kill it when its
 * parent ends, and `samba -i` also ends when its standard input closes. A run that was killed
 * leaves its directories behind; the next run's sweep removes them.
 *
 * @example
 * const template = await provisionSambaTemplate();
 * const server = await startSambaServer(template);
 * afterAll(async () => { await server.stop(); await template.remove(); });
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, cp, mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'ldapts';

const execFileAsync = promisify(execFile);

/** Every directory this harness makes starts so; the sweep removes only such directories. */
const DIR_PREFIX = 'oaakit-samba-';
/** In each such directory: the pid of the test process that made it. */
const PID_FILE = 'owner.pid';

export const REALM = 'CORP.EXAMPLE';
export const NETBIOS_DOMAIN = 'CORP';
export const BASE_DN = 'DC=corp,DC=example';
const HOST_NAME = 'DC1';

/** The ports Samba's LDAP server always listens on: LDAP, LDAPS, global catalog, global catalog over TLS. */
export const SAMBA_LDAP_PORTS = [389, 636, 3268, 3269] as const;

/** A provisioned domain that servers are copied from. */
export interface SambaTemplate {
  /** The password of the domain's `Administrator`. */
  readonly adminPassword: string;
  /** @internal The provisioned directory (`etc`, `private`, `state`, ...). */
  readonly dir: string;
  /** Seconds the provisioning took. */
  readonly provisionSeconds: number;
  /** Removes the template's directory. */
  remove(): Promise<void>;
}

/** A running domain controller; `stop()` it after. */
export interface SambaServer {
  /** `ldap://127.0.0.1:389`. Simple binds are allowed without TLS. */
  readonly url: string;
  /** `ldaps://127.0.0.1:636`, with {@link caFile} as its certificate. */
  readonly ldapsUrl: string;
  /** The server's self-signed certificate (for 127.0.0.1 and localhost), to trust as the CA. */
  readonly caFile: string;
  readonly baseDn: string;
  readonly realm: string;
  /** The domain's `Administrator`, as a DN. */
  readonly adminDn: string;
  readonly adminPassword: string;
  /** The harness directory holding the server's copy of the domain; removed by `stop()`. */
  readonly dir: string;
  /** The server's pid. */
  readonly pid: number;
  /** Seconds from the start of the process until it served LDAP. */
  readonly startSeconds: number;
  /** A client bound as `Administrator` over LDAPS (password changes need TLS); the caller unbinds it. */
  connectAsAdmin(): Promise<Client>;
  /** Ends the server and removes its directory. */
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Removes the directories left by a test run that was killed before it could clean up: only this
 * harness's (by prefix), and only those whose owner process is gone. A server of such a directory
 * died with its owner; should one still run (its pid file names a live process whose command line
 * is that directory's samba), it is ended first, as it was started by this harness.
 */
export async function sweepLeftovers(): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const owner = Number((await readText(join(dir, PID_FILE)))?.trim());
    // No mark: being created right now, or not ours after all; leave it.
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    const samba = Number((await readText(join(dir, 'run', 'samba.pid')))?.trim());
    if (Number.isInteger(samba) && samba > 0 && alive(samba)) {
      const cmdline = (await readText(`/proc/${samba}/cmdline`)) ?? '';
      if (cmdline.split('\0').includes(join(dir, 'etc', 'smb.conf'))) {
        process.kill(samba, 'SIGKILL');
        await waitForExit(samba);
      }
    }
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** Resolves once `pid` has ended (a process that is not our child cannot be waited on otherwise). */
async function waitForExit(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A directory of this harness, marked with the pid of this process. */
async function harnessDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), DIR_PREFIX));
  await writeFile(join(dir, PID_FILE), `${process.pid}\n`);
  return dir;
}

function requireRoot(): void {
  if (process.getuid?.() !== 0)
    throw new Error(
      'the Samba domain controller of these tests runs as root: it listens on the fixed LDAP port 389',
    );
}

/** A password that meets the domain's default complexity rules. */
export function strongPassword(): string {
  return `Aa1!${randomBytes(12).toString('base64url')}`;
}

/** Provisions CORP.EXAMPLE into a template directory (`samba-tool domain provision`, a few seconds). */
export async function provisionSambaTemplate(): Promise<SambaTemplate> {
  requireRoot();
  await sweepLeftovers();
  const dir = await harnessDir();
  const adminPassword = strongPassword();
  const started = process.hrtime.bigint();
  try {
    await execFileAsync(
      'samba-tool',
      [
        'domain',
        'provision',
        `--realm=${REALM}`,
        `--domain=${NETBIOS_DOMAIN}`,
        `--host-name=${HOST_NAME}`,
        '--server-role=dc',
        '--dns-backend=NONE',
        '--use-rfc2307',
        `--targetdir=${join(dir, 'domain')}`,
        '--option=interfaces=lo',
        '--option=bind interfaces only=yes',
        `--adminpass=${adminPassword}`,
      ],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const { stderr, code } = error as { stderr?: string; code?: unknown };
    if (code === 'ENOENT') throw new Error('samba-tool is not installed: run scripts/setup-system.sh');
    throw new Error(`samba-tool domain provision failed:\n${(stderr ?? String(error)).slice(-4000)}`);
  }
  const provisionSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    adminPassword,
    dir: join(dir, 'domain'),
    provisionSeconds,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Samba's configuration for a copy of the domain at `dir`: LDAP only, on loopback, all state inside `dir`. */
function smbConf(dir: string, tls: { cert: string; key: string }): string {
  const lines = {
    'netbios name': HOST_NAME,
    realm: REALM,
    workgroup: NETBIOS_DOMAIN,
    'server role': 'active directory domain controller',
    'server services': 'ldap',
    interfaces: 'lo',
    'bind interfaces only': 'yes',
    'idmap_ldb:use rfc2307': 'yes',
    // Without it every change is synced to disk: 2,500 adds take minutes instead of seconds.
    'ldb:nosync': 'true',
    // Simple binds over plain LDAP, as many directory clients still make them; LDAPS is there too.
    'ldap server require strong auth': 'no',
    'tls enabled': 'yes',
    'tls certfile': tls.cert,
    'tls keyfile': tls.key,
    'tls cafile': '',
    'private dir': join(dir, 'private'),
    'binddns dir': join(dir, 'bind-dns'),
    'state directory': join(dir, 'state'),
    'cache directory': join(dir, 'cache'),
    'lock directory': join(dir, 'run'),
    'pid directory': join(dir, 'run'),
    'ncalrpc dir': join(dir, 'run', 'ncalrpc'),
    'winbindd socket directory': join(dir, 'run', 'winbindd'),
    'ntp signd socket directory': join(dir, 'run', 'ntp_signd'),
    'log file': join(dir, 'log', 'samba.log'),
    logging: 'file',
    'panic action': '',
  };
  return `[global]\n${Object.entries(lines)
    .map(([k, v]) => `\t${k} = ${v}`)
    .join('\n')}\n`;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by `openssl`. */
async function certificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'tls-cert.pem');
  const key = join(dir, 'tls-key.pem');
  await execFileAsync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-keyout',
    key,
    '-out',
    cert,
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  // Samba refuses a key that others may read.
  await chmod(key, 0o600);
  return { cert, key };
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The socket inodes listening on `port` (IPv4 and IPv6), from /proc/net. */
async function listeningInodes(port: number): Promise<Set<string>> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of ((await readText(table)) ?? '').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT; state 0A is LISTEN; the inode is the tenth field.
      if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A' && f[9] !== undefined) inodes.add(f[9]);
    }
  }
  return inodes;
}

/** The socket inodes process `pid` holds open. */
async function socketsOf(pid: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]!);
  }
  return inodes;
}

/** Who listens on `port`: "pid N (name)", or a plain statement when /proc does not tell. */
async function listenerOf(port: number): Promise<string> {
  const inodes = await listeningInodes(port);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const held = await socketsOf(Number(entry));
    if ([...inodes].some((i) => held.has(i))) {
      const comm = ((await readText(`/proc/${entry}/comm`)) ?? '?').trim();
      return `pid ${entry} (${comm})`;
    }
  }
  return 'another process';
}

/** Fails, naming the holder, when any of Samba's fixed LDAP ports is taken. */
export async function assertLdapPortsFree(): Promise<void> {
  for (const port of SAMBA_LDAP_PORTS) {
    if (await answers(port))
      throw new Error(
        `port ${port} on 127.0.0.1 is in use by ${await listenerOf(port)}. The Samba domain controller ` +
          `of these tests needs the fixed LDAP ports ${SAMBA_LDAP_PORTS.join(', ')}; end what holds it ` +
          '(these tests never take a port from another process), or run the Samba tests elsewhere.',
      );
  }
}

/** Resolves when `child` holds listening sockets on all of Samba's LDAP ports; rejects if it exits. */
async function listening(child: ChildProcess, log: () => string): Promise<void> {
  const pid = child.pid!;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => (exited = { code, signal });
  child.once('exit', onExit);
  try {
    // Samba logs nothing once it listens: watch its sockets instead, which /proc shows.
    for (;;) {
      if (exited !== undefined || child.exitCode !== null || child.signalCode !== null) {
        const text = log();
        const taken = /Failed to listen on ([\d.:[\]a-f]+)/i.exec(text);
        throw new Error(
          taken
            ? `Samba could not listen on ${taken[1]}: another process took the port as Samba started.\n${text}`
            : `samba exited (${exited?.signal ?? exited?.code ?? child.exitCode}) before it served LDAP:\n${text}`,
        );
      }
      const held = await socketsOf(pid);
      let all = true;
      for (const port of SAMBA_LDAP_PORTS) {
        const inodes = await listeningInodes(port);
        if (![...inodes].some((i) => held.has(i))) all = false;
      }
      if (all) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    child.off('exit', onExit);
  }
}

/** Starts a domain controller on a copy of the template. */
export async function startSambaServer(template: SambaTemplate): Promise<SambaServer> {
  requireRoot();
  await sweepLeftovers();
  await assertLdapPortsFree();
  const dir = await harnessDir();
  const domain = join(dir, 'domain');
  let child: ChildProcess | undefined;
  try {
    await cp(template.dir, domain, { recursive: true, preserveTimestamps: true });
    const tls = await certificate(dir);
    const conf = join(domain, 'etc', 'smb.conf');
    await writeFile(conf, smbConf(domain, tls));
    const started = process.hrtime.bigint();
    // Standard input stays open: `samba -i` ends when it closes, as it does when this process dies.
    child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', 'samba', '-i', '-M', 'single', '-s', conf], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      // Keep the start of the log, where failures are told; keep reading so the pipe never fills.
      if (output.length < 64 * 1024) output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const spawned = child;
    await new Promise<void>((resolve, reject) => {
      spawned.once('spawn', resolve);
      spawned.once('error', reject);
    });
    await listening(child, () => output);
    const startSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const exited = new Promise<void>((resolve) => {
      if (spawned.exitCode !== null || spawned.signalCode !== null) resolve();
      else spawned.once('exit', () => resolve());
    });
    const caFile = tls.cert;
    const ca = await readFile(caFile);
    const adminDn = `CN=Administrator,CN=Users,${BASE_DN}`;
    const connectAsAdmin = async (): Promise<Client> => {
      const client = new Client({
        url: 'ldaps://127.0.0.1:636',
        tlsOptions: { ca },
      });
      await client.bind(adminDn, template.adminPassword);
      return client;
    };
    // Prove it answers as the domain controller of this domain.
    const probe = await connectAsAdmin();
    try {
      const { searchEntries } = await probe.search('', {
        scope: 'base',
        attributes: ['defaultNamingContext'],
      });
      if (searchEntries[0]?.defaultNamingContext !== BASE_DN)
        throw new Error(`the server on port 389 is not this domain: ${JSON.stringify(searchEntries[0])}`);
    } finally {
      await probe.unbind();
    }
    return {
      url: 'ldap://127.0.0.1:389',
      ldapsUrl: 'ldaps://127.0.0.1:636',
      caFile,
      baseDn: BASE_DN,
      realm: REALM,
      adminDn,
      adminPassword: template.adminPassword,
      dir,
      pid: spawned.pid!,
      startSeconds,
      connectAsAdmin,
      async stop() {
        spawned.kill('SIGTERM');
        await exited;
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await ended;
    }
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
