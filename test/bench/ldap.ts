#!/usr/bin/env node
/**
 * The directory benchmark: `npm run bench:ldap -- [--users 100000] [--groups 10000]` (build first).
 * Generates a directory of N users and G groups nested three deep (a tenth of a percent of the
 * groups at the top, nine percent below them, the rest as leaves holding the users, three leaf
 * groups per user) and a manager for every user but the first, loads it into a private OpenLDAP
 * with `slapadd` (the plugin's test config: `plugins/ldap/fixtures/openldap/slapd.conf`, the bind
 * account's `limits` line included), starts `slapd` on a random port, and runs the built
 * `oaa run --json` twice into the counting sink: the first run reads and pushes the directory, the
 * second, with nothing changed, must push nothing. Prints one JSON line: the first run's wall time
 * (the whole `oaa run` process) and peak RSS, the payload's bytes, and the second run's outcome.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { startCountingSink, type CountingSink } from './sink.js';

const execFileAsync = promisify(execFile);

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    groups: { type: 'string', default: '10000' },
  },
});
const users = Number(values.users);
const groups = Number(values.groups);
if (!Number.isSafeInteger(users) || users < 1)
  throw new Error(`--users must be a positive whole number, got ${values.users}`);
if (!Number.isSafeInteger(groups) || groups < 10)
  throw new Error(`--groups must be a whole number of at least 10, got ${values.groups}`);

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const oaaBin = join(repo, 'packages/cli/bin/run.js');
const pluginDir = join(repo, 'plugins/ldap');
const fixtures = join(pluginDir, 'fixtures/openldap');
const SUFFIX = 'dc=corp,dc=example';
const READER = `cn=oaa-reader,ou=services,${SUFFIX}`;
const round = (x: number) => Math.round(x * 1000) / 1000;
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

/** The three levels of groups: top, middle, leaf (indexes into one numbering). */
function levels(): { top: number; middle: number; leaf: number } {
  const top = Math.max(1, Math.round(groups / 100));
  const middle = Math.max(1, Math.round(groups * 0.09));
  return { top, middle, leaf: groups - top - middle };
}

/** Writes the directory as LDIF; returns the number of memberships of users in leaf groups. */
async function writeLdif(file: string, password: string): Promise<number> {
  const out = createWriteStream(file);
  const write = (text: string): Promise<void> =>
    out.write(text) ? Promise.resolve() : new Promise((r) => out.once('drain', () => r()));
  await write(
    [
      `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: corp\no: Corp Example\n`,
      `dn: ou=people,${SUFFIX}\nobjectClass: organizationalUnit\nou: people\n`,
      `dn: ou=groups,${SUFFIX}\nobjectClass: organizationalUnit\nou: groups\n`,
      `dn: ou=services,${SUFFIX}\nobjectClass: organizationalUnit\nou: services\n`,
      `dn: ${READER}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: oaa-reader\nuserPassword: ${password}\n`,
      '',
    ].join('\n'),
  );
  const { top, middle, leaf } = levels();
  const userDn = (i: number) => `uid=user${i},ou=people,${SUFFIX}`;
  const groupDn = (g: number) => `cn=group${g},ou=groups,${SUFFIX}`;
  for (let i = 0; i < users; i++) {
    await write(
      `dn: ${userDn(i)}\nobjectClass: inetOrgPerson\nuid: user${i}\ncn: User ${i}\nsn: ${i}\n` +
        `givenName: User\ndisplayName: User ${i}\nmail: user${i}@corp.example\ntitle: Engineer\n` +
        `departmentNumber: Department ${i % 100}\nemployeeNumber: ${100000 + i}\n` +
        (i === 0 ? '' : `manager: ${userDn(Math.floor(i / 10))}\n`) +
        '\n',
    );
  }
  // Leaf g holds the users whose three leaves include g; each middle group holds its leaves, each
  // top group its middle groups.
  const leafMembers: number[][] = Array.from({ length: leaf }, () => []);
  let memberships = 0;
  for (let i = 0; i < users; i++) {
    const mine = new Set([(i * 7) % leaf, (i * 13 + 1) % leaf, (i * 31 + 2) % leaf]);
    for (const g of mine) leafMembers[g]!.push(i);
    memberships += mine.size;
  }
  for (let t = 0; t < top; t++) {
    const children: string[] = [];
    for (let m = t; m < middle; m += top) children.push(`member: ${groupDn(top + m)}`);
    await write(`dn: ${groupDn(t)}\nobjectClass: groupOfNames\ncn: group${t}\n${children.join('\n')}\n\n`);
  }
  for (let m = 0; m < middle; m++) {
    const children: string[] = [];
    for (let l = m; l < leaf; l += middle) children.push(`member: ${groupDn(top + middle + l)}`);
    await write(
      `dn: ${groupDn(top + m)}\nobjectClass: groupOfNames\ncn: group${top + m}\n${children.join('\n')}\n\n`,
    );
  }
  for (let l = 0; l < leaf; l++) {
    const list = leafMembers[l]!;
    // groupOfNames needs a member: an empty leaf lists the bind account, which is no user.
    const lines = list.length > 0 ? list.map((i) => `member: ${userDn(i)}`) : [`member: ${READER}`];
    const g = top + middle + l;
    await write(`dn: ${groupDn(g)}\nobjectClass: groupOfNames\ncn: group${g}\n${lines.join('\n')}\n\n`);
  }
  await new Promise<void>((r, j) => out.end((error?: Error | null) => (error ? j(error) : r())));
  return memberships;
}

/** Starts slapd on a random port (another when it is taken); resolves once it accepts connections. */
async function startSlapd(config: string): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    const child = spawn(
      'setpriv',
      ['--pdeathsig', 'TERM', '--', 'slapd', '-f', config, '-h', `ldap://127.0.0.1:${port}/`, '-d', '32768'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    const started = await new Promise<boolean>((done, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString('utf8');
        if (log.includes('slapd starting')) done(true);
      });
      child.once('exit', () =>
        /Address already in use/.test(log) ? done(false) : fail(new Error(`slapd exited:\n${log}`)),
      );
    });
    if (!started) continue;
    // "slapd starting" comes just before slapd listens: wait for the first accepted connection.
    for (;;) {
      const accepted = await new Promise<boolean>((done) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          done(true);
        });
        socket.once('error', () => done(false));
      });
      if (accepted) return { child, port };
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  throw new Error('slapd found no free port in 10 attempts');
}

interface Child {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

function runChild(args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, seconds: seconds(started) }));
  });
}

interface RunJson {
  results: {
    status: string;
    durationMs: number;
    counts: Record<string, number>;
    bytes?: { json: number; compressed: number };
    push?: { mode: string };
  }[];
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'oaa-bench-ldap-'));
  let slapd: ChildProcess | undefined;
  let sink: CountingSink | undefined;
  try {
    await mkdir(join(dir, 'data'));
    const password = Math.random().toString(36).slice(2);
    await execFileAsync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(dir, 'server.key'),
      '-out',
      join(dir, 'server.crt'),
    ]);
    const template = await readFile(join(fixtures, 'slapd.conf'), 'utf8');
    const config = join(dir, 'slapd.conf');
    await writeFile(
      config,
      template
        .replaceAll('@FIXTURES@', fixtures)
        .replaceAll('@DIR@', dir)
        .replaceAll('@ROOTPW@', password)
        .replaceAll('@LIMITS@', '')
        .replaceAll('@DYNLIST@', '# ')
        .replaceAll('@DATABASE@', ''),
      { mode: 0o600 },
    );
    const ldif = join(dir, 'directory.ldif');
    const generating = process.hrtime.bigint();
    const memberships = await writeLdif(ldif, password);
    const generate_s = seconds(generating);
    const loading = process.hrtime.bigint();
    await execFileAsync('slapadd', ['-q', '-f', config, '-l', ldif], { maxBuffer: 64 * 1024 * 1024 });
    const load_s = seconds(loading);
    await rm(ldif);
    const started = await startSlapd(config);
    slapd = started.child;

    sink = await startCountingSink();
    const oaaConfig = join(dir, 'oaa.config.json');
    await writeFile(
      oaaConfig,
      JSON.stringify({
        target: { url: sink.url },
        stateDir: 'state',
        connectors: [
          {
            id: 'directory',
            plugin: pluginDir,
            provider: 'Corp directory',
            dataSource: 'corp.example',
            config: { url: `ldap://127.0.0.1:${started.port}`, bindDn: READER },
            secrets: { bindPassword: 'env:OAA_BENCH_LDAP_PASSWORD' },
          },
        ],
      }),
    );
    const preload = new URL('./peak-rss-at-exit.js', import.meta.url).href;
    const run = async (name: string) => {
      const rssFile = join(dir, `peak-rss-${name}`);
      const env = {
        ...process.env,
        OAA_API_KEY: 'bench-sink-key',
        OAA_BENCH_LDAP_PASSWORD: password,
        OAA_BENCH_RSS_FILE: rssFile,
        NO_COLOR: '1',
      };
      const child = await runChild(
        ['--import', preload, oaaBin, 'run', '--config', oaaConfig, '--json'],
        env,
      );
      if (child.code !== 0)
        throw new Error(`oaa run exited with ${child.code}: ${child.stderr || child.stdout}`);
      const result = (JSON.parse(child.stdout) as RunJson).results[0]!;
      return { child, result, peakRss: Number(await readFile(rssFile, 'utf8')) };
    };
    const first = await run('first');
    if (first.result.status !== 'pushed')
      throw new Error(`the first run did not push: ${first.child.stdout}`);
    const pushes = sink.pushes();
    const second = await run('second');
    const line = {
      users,
      groups,
      memberships,
      generate_s: round(generate_s),
      slapadd_s: round(load_s),
      counts: first.result.counts,
      total_s: round(first.child.seconds),
      run_s: round(first.result.durationMs / 1000),
      peak_rss_mb: Math.round(first.peakRss / 1024 / 1024),
      json_bytes: first.result.bytes?.json,
      gzip_bytes: first.result.bytes?.compressed,
      push_mode: first.result.push?.mode,
      sink_pushes: pushes,
      rerun_status: second.result.status,
      rerun_total_s: round(second.child.seconds),
      rerun_peak_rss_mb: Math.round(second.peakRss / 1024 / 1024),
      sink_pushes_after_rerun: sink.pushes(),
      node: process.version,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } finally {
    await sink?.close();
    if (slapd !== undefined && slapd.exitCode === null) {
      const exited = new Promise((r) => slapd!.once('exit', r));
      slapd.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:ldap failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
