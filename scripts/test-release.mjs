#!/usr/bin/env node
// `npm run test:release`: the release path, end to end, as a user meets it. Every publishable
// package is published (by `changeset publish`, as `npm run release` does) to a real npm registry
// (verdaccio) started here on a free port; then, in an empty temporary directory, `@oaakit/cli` is
// installed globally into a temporary prefix from that registry, and the installed `oaa` scaffolds a
// plugin, which is installed, built, tested and run (`--dry-run`, then for real into the embedded
// emulator, whose graph is read back with `oaa` commands).
//
// Only the @oaakit scope is pointed at the local registry (an npm_config_@oaakit:registry variable
// in the environment of each command); every other package comes from the registry this machine is
// configured with. The user's commands run with no npm_* variables and without this checkout's
// node_modules/.bin on the PATH, as in a new shell. Each step prints its duration; a failing step
// stops the run with its name, the command and its output. The registry (a child process that exits
// with this one) and the temporary directory are removed on exit, on failure and on Ctrl-C
// (OAAKIT_RELEASE_KEEP=1 keeps the directory, to look at what a failed step left).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const total = performance.now();
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A command still running after this long is stopped and its step fails (a hang, not slowness). */
const COMMAND_LIMIT_MS = 10 * 60_000;

/** A step's failure: what went wrong, and the output of the command that failed, if any. */
class StepFailure extends Error {
  constructor(message, output = '') {
    super(message);
    this.output = output;
  }
}

// ---- cleanup: the registry, any running command (with its children), the temporary directory

/**
 * Where the run's temporary directory goes: TMPDIR when it is set; else /dev/shm when it is a
 * tmpfs that allows executables (the global prefix's `oaa`, native modules), else the system's
 * temporary directory. The run leaves some 20,000 files (two installs); on a disk mounted with
 * `discard`, as this project's machines are, removing them takes 30 to 60 seconds, and on a tmpfs
 * about one.
 */
function workBase() {
  if (process.env.TMPDIR) return tmpdir();
  try {
    const shm = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find(([, mountPoint, type]) => mountPoint === '/dev/shm' && type === 'tmpfs');
    if (shm !== undefined && !shm[3].split(',').includes('noexec')) {
      accessSync('/dev/shm', constants.W_OK);
      return '/dev/shm';
    }
  } catch {
    // no /proc/mounts, or /dev/shm not writable
  }
  return tmpdir();
}

const work = mkdtempSync(join(workBase(), 'oaakit-release-'));
/** Running child processes, each the leader of its own process group. */
const running = new Set();
let registryLog = '';

let cleanedUp = false;
function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
  if (process.env.OAAKIT_RELEASE_KEEP === '1') process.stderr.write(`test:release: kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.stderr.write(`\ntest:release: stopped by ${signal}; cleaning up\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

// ---- steps and commands

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const steps = [];
let currentStep = '(start)';

async function step(name, fn) {
  currentStep = name;
  process.stdout.write(`\n== ${name}\n`);
  const started = performance.now();
  const result = await fn();
  const took = performance.now() - started;
  steps.push({ name, took });
  process.stdout.write(`-- ok in ${seconds(took)}\n`);
  return result;
}

const note = (text) => process.stdout.write(`   ${text}\n`);

/**
 * Runs `command args` in `cwd` with `env`, its output captured; resolves to its stdout (its whole
 * output with `all`), and fails the step with its whole output (stdout and stderr as they came)
 * when it exits non-zero.
 */
function run(command, args, { cwd, env, all = false }) {
  const shown = [command, ...args].join(' ');
  process.stdout.write(`   $ ${shown}\n`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    const chunks = [];
    const stdout = [];
    child.stdout.on('data', (c) => {
      chunks.push(c);
      stdout.push(c);
    });
    child.stderr.on('data', (c) => chunks.push(c));
    const limit = setTimeout(() => {
      chunks.push(Buffer.from(`\n[test:release: stopped after ${seconds(COMMAND_LIMIT_MS)}]\n`));
      process.kill(-child.pid, 'SIGKILL');
    }, COMMAND_LIMIT_MS);
    child.on('error', (error) => {
      clearTimeout(limit);
      running.delete(child);
      reject(new StepFailure(`could not start \`${shown}\`: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      running.delete(child);
      const output = Buffer.concat(chunks).toString('utf8');
      if (code === 0) resolvePromise(all ? output : Buffer.concat(stdout).toString('utf8'));
      else
        reject(
          new StepFailure(
            `\`${shown}\` (in ${cwd}) ${signal ? `was killed by ${signal}` : `exited with ${code}`}`,
            output,
          ),
        );
    });
  });
}

function check(condition, message, output = '') {
  if (!condition) throw new StepFailure(message, output);
}

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    throw new StepFailure(`${what} did not print JSON`, text);
  }
}

// ---- the publishable packages: every workspace package that is not private

function publishablePackages() {
  const found = [];
  for (const parent of ['packages', 'plugins']) {
    for (const dir of readdirSync(join(root, parent), { withFileTypes: true })) {
      if (!dir.isDirectory() || dir.name.startsWith('.')) continue;
      const manifest = JSON.parse(readFileSync(join(root, parent, dir.name, 'package.json'), 'utf8'));
      if (manifest.private !== true) found.push({ name: manifest.name, version: manifest.version });
    }
  }
  return found;
}

// ---- environments

/** This process's environment without npm's run-script variables (npm_*, INIT_CWD). */
function baseEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return env;
}

/** PATH without this checkout's node_modules/.bin directories and npm's run-script additions. */
function userPath(prefixBin) {
  const kept = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(
      (entry) => entry !== '' && !entry.startsWith(root + sep) && !entry.includes(`${sep}node-gyp-bin`),
    );
  return [prefixBin, ...kept].join(delimiter);
}

// ---- better-sqlite3's binary

/**
 * better-sqlite3 (the emulator's SQLite binding on Node 20) installs with a script that downloads
 * its prebuilt binary for the running Node from the project's release host, and compiles SQLite
 * from source (about 2.5 CPU-minutes) when that fails. This machine reaches no such host, so each
 * of the two installs of the run would compile. The binary this checkout's install built (same
 * version, same Node ABI) is offered instead as a local prebuild, the way the install script
 * (prebuild-install) looks for one: `<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` in the
 * directory named by npm_config_better_sqlite3_local_prebuilds. The install script still runs (and
 * so still needs --allow-scripts); only where its binary comes from changes. An install that
 * resolves another version of better-sqlite3 finds no prebuild of that version and compiles it, as
 * it does when the checkout's binary does not load in this Node (then nothing is offered).
 */
async function betterSqlitePrebuild() {
  const dir = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  try {
    const Database = createRequire(join(root, 'package.json'))('better-sqlite3');
    new Database(':memory:').close();
  } catch (error) {
    note(
      `this checkout's better-sqlite3 does not load in this Node (${error.message}): the installs compile it`,
    );
    return {};
  }
  const prebuilds = join(work, 'prebuilds');
  mkdirSync(prebuilds);
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(prebuilds, file), '-C', dir, 'build/Release/better_sqlite3.node'], {
    cwd: work,
    env: baseEnv(),
  });
  note(`${file}, from ${relative(root, dir)}/build/Release`);
  return { npm_config_better_sqlite3_local_prebuilds: prebuilds };
}

/** npm 11's notices about install scripts that no allowScripts entry covers, shown in the step's output. */
function installScriptNotices(output) {
  for (const line of output.split('\n')) if (line.startsWith('npm warn install-scripts')) note(line);
}

/** How the better-sqlite3 in `nodeModules` got its binary, for the step's output. */
function sqliteBinaryNote(nodeModules) {
  const dir = join(nodeModules, 'better-sqlite3');
  if (!existsSync(join(dir, 'package.json'))) return `no better-sqlite3 in ${nodeModules}`;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (!existsSync(join(dir, 'build', 'Release', 'better_sqlite3.node')))
    return `better-sqlite3 ${version} has no binary (its install script did not run)`;
  const compiled = existsSync(join(dir, 'build', 'Release', 'obj.target'));
  return `better-sqlite3 ${version}: binary ${compiled ? 'compiled from source' : 'from the prebuild'}`;
}

// ---- the run

const packages = publishablePackages();
const versions = Object.fromEntries(packages.map((p) => [p.name, p.version]));
const registryDir = join(work, 'registry');
const prefix = join(work, 'prefix');
const home = join(work, 'user');
mkdirSync(registryDir);
mkdirSync(home);

let url;
let localPrebuilds = {};
let publishEnv;
let userEnv;
let pluginDir;
let tokenVariable;
const oaa = join(prefix, 'bin', 'oaa');

process.stdout.write(`test:release: working in ${work}\n`);

try {
  await step('build the packages (npm run build)', async () => {
    await run('npm', ['run', 'build'], { cwd: root, env: baseEnv() });
  });

  await step("better-sqlite3's prebuilt binary, from this checkout", async () => {
    localPrebuilds = await betterSqlitePrebuild();
  });

  await step('start a local npm registry (verdaccio) on a free port', async () => {
    writeFileSync(
      join(registryDir, 'config.yaml'),
      [
        '# Written by scripts/test-release.mjs for one run; removed with it.',
        'storage: ./storage',
        'auth:',
        '  htpasswd:',
        '    file: ./htpasswd',
        '    max_users: 1',
        '# No uplinks: this registry serves the @oaakit packages published to it and nothing else.',
        'packages:',
        "  '@oaakit/*':",
        '    access: $all',
        '    publish: $authenticated',
        '    unpublish: $authenticated',
        'web:',
        '  enable: false',
        'max_body_size: 200mb',
        '# Tokens are signed (JWT), so a request is not a password check each time.',
        'security:',
        '  api:',
        '    legacy: false',
        '    jwt:',
        '      sign:',
        '        expiresIn: 1h',
        'log: { type: stdout, format: pretty, level: warn }',
        '',
      ].join('\n'),
    );
    const child = spawn(
      process.execPath,
      [join(root, 'scripts', 'local-registry.mjs'), join(registryDir, 'config.yaml')],
      {
        cwd: registryDir,
        env: baseEnv(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    running.add(child);
    child.stdout.on('data', (c) => (registryLog += c));
    child.stderr.on('data', (c) => (registryLog += c));
    const port = await new Promise((resolvePort, reject) => {
      child.once('message', (message) => resolvePort(message.port));
      child.once('exit', (code, signal) =>
        reject(new StepFailure(`the registry exited (${signal ?? code}) before it listened`, registryLog)),
      );
    });
    child.removeAllListeners('exit');
    child.on('exit', (code, signal) => {
      running.delete(child);
      registryLog += `\n[the registry exited: ${signal ?? code}]\n`;
    });
    url = `http://127.0.0.1:${port}/`;
    note(`listening at ${url}`);
  });

  await step('create a publisher account on the registry', async () => {
    const name = 'oaakit-release-test';
    const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        password: randomBytes(18).toString('base64url'),
        type: 'user',
        roles: [],
      }),
    });
    const body = await response.text();
    check(response.status === 201, `creating the user answered ${response.status}`, body);
    const { token } = parseJson(body, 'the user creation');
    check(typeof token === 'string' && token.length > 0, 'the registry gave no token');
    // The token goes to npm through the environment, never on a command line that is printed.
    publishEnv = {
      ...baseEnv(),
      'npm_config_@oaakit:registry': url,
      [`npm_config_${url.replace(/^http:/, '')}:_authToken`]: token,
    };
    userEnv = {
      ...baseEnv(),
      PATH: userPath(join(prefix, 'bin')),
      'npm_config_@oaakit:registry': url,
      ...localPrebuilds,
    };
  });

  await step(`publish ${packages.length} packages (changeset publish, as npm run release does)`, async () => {
    // The changeset bin is run with node, not npx: npm exec drops the npm_config_* variables it does
    // not know, such as the scope's registry.
    const changeset = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');
    await run(process.execPath, [changeset, 'publish', '--no-git-tag'], { cwd: root, env: publishEnv });
    for (const { name, version } of packages) {
      const response = await fetch(new URL(name.replace('/', '%2f'), url));
      const body = await response.text();
      check(response.ok, `the registry does not have ${name} (${response.status})`, body);
      const packument = parseJson(body, `the registry's ${name}`);
      check(
        packument['dist-tags']?.latest === version && packument.versions?.[version] !== undefined,
        `the registry's ${name} is not ${version} (latest: ${packument['dist-tags']?.latest})`,
      );
      note(`${name}@${version}`);
    }
  });

  await step('install @oaakit/cli globally into an empty prefix, as a user would', async () => {
    const installed = await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--allow-scripts=better-sqlite3',
        '--no-audit',
        '--no-fund',
        '@oaakit/cli',
      ],
      { cwd: home, env: userEnv, all: true },
    );
    installScriptNotices(installed);
    const version = await run(oaa, ['--version'], { cwd: home, env: userEnv });
    check(
      version.startsWith(`@oaakit/cli/${versions['@oaakit/cli']} `),
      `oaa --version does not name @oaakit/cli ${versions['@oaakit/cli']}`,
      version,
    );
    note(version.trim());
    note(sqliteBinaryNote(join(prefix, 'lib', 'node_modules', '@oaakit', 'cli', 'node_modules')));
  });

  await step('oaa plugins new demo --template hris', async () => {
    const printed = await run(oaa, ['plugins', 'new', 'demo', '--template', 'hris'], {
      cwd: home,
      env: userEnv,
    });
    pluginDir = join(home, 'demo');
    const manifest = parseJson(
      readFileSync(join(pluginDir, 'package.json'), 'utf8'),
      'the plugin package.json',
    );
    const wanted = ['cli', 'client', 'core', 'emulator', 'runner'].map((p) => `@oaakit/${p}`);
    for (const name of wanted) {
      const range = manifest.devDependencies?.[name];
      check(
        range === `^${versions[name]}`,
        `the plugin depends on ${name} ${range}, not ^${versions[name]} (the published version)`,
        JSON.stringify(manifest, null, 2),
      );
    }
    check(
      manifest.peerDependencies?.['@oaakit/core'] === `^${versions['@oaakit/core']}`,
      'the plugin peer dependency on @oaakit/core is not the published version',
      JSON.stringify(manifest, null, 2),
    );
    const dryRunHint = /^\s+([A-Z][A-Z0-9_]*)=\S+ npx oaa run --dry-run$/m.exec(printed);
    check(dryRunHint !== null, 'oaa plugins new printed no `oaa run --dry-run` next step', printed);
    tokenVariable = dryRunHint[1];
    note(wanted.map((name) => `${name} ${manifest.devDependencies[name]}`).join(', '));
  });

  await step('npm install (in the plugin)', async () => {
    installScriptNotices(
      await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: pluginDir, env: userEnv, all: true }),
    );
    note(sqliteBinaryNote(join(pluginDir, 'node_modules')));
  });

  await step('npm run build', async () => {
    await run('npm', ['run', 'build'], { cwd: pluginDir, env: userEnv });
  });

  await step('npm test (the connector against the emulator)', async () => {
    await run('npm', ['test'], { cwd: pluginDir, env: userEnv });
  });

  const runEnv = () => ({ ...userEnv, [tokenVariable]: 'unused-by-the-file-source' });

  await step('oaa run --dry-run', async () => {
    const output = parseJson(
      await run(oaa, ['run', '--dry-run', '--json'], { cwd: pluginDir, env: runEnv() }),
      'oaa run --dry-run --json',
    );
    const result = output.results?.[0];
    check(
      output.dryRun === true && output.results.length === 1 && result.status === 'dry-run',
      'oaa run --dry-run did not run the connector as a dry run',
      JSON.stringify(output, null, 2),
    );
    check(
      result.diff?.firstPush === true && result.diff.totals.added > 0,
      'oaa run --dry-run shows nothing to add on a first run',
      JSON.stringify(result, null, 2),
    );
    note(`would add ${result.diff.totals.added} entities (${JSON.stringify(result.counts)})`);
  });

  await step('oaa run into the embedded emulator, then read what landed back with oaa', async () => {
    const fixture = parseJson(
      readFileSync(join(pluginDir, 'fixtures', 'source.json'), 'utf8'),
      'the fixture',
    );
    const employeeIds = fixture.employees.map((e) => e.id).sort();
    const departmentIds = fixture.departments.map((d) => d.id).sort();
    const oaaJson = async (args) =>
      parseJson(
        await run(oaa, [...args, '--json'], { cwd: pluginDir, env: runEnv() }),
        `oaa ${args.join(' ')}`,
      );

    const ran = await oaaJson(['run']);
    const result = ran.results?.[0];
    check(
      ran.results?.length === 1 && result.status === 'pushed',
      'oaa run did not push the connector',
      JSON.stringify(ran, null, 2),
    );
    check(
      result.counts?.employees === employeeIds.length && result.counts?.groups === departmentIds.length,
      `oaa run pushed ${JSON.stringify(result.counts)}, not the fixture's ${employeeIds.length} employees and ${departmentIds.length} departments`,
    );

    const providers = await oaaJson(['providers', 'list']);
    const provider = providers.find((p) => p.name === result.provider.name);
    check(
      provider !== undefined && provider.hris_types?.length === 1,
      `oaa providers list has no hris provider ${result.provider.name}`,
      JSON.stringify(providers, null, 2),
    );
    const hrisType = provider.hris_types[0];
    const dataSources = await oaaJson(['datasources', 'list', '--provider', provider.name]);
    check(
      dataSources.length === 1 &&
        dataSources[0].name === result.dataSource.name &&
        dataSources[0].status === 'SUCCESS',
      `oaa datasources list does not show ${result.dataSource.name} parsed (SUCCESS)`,
      JSON.stringify(dataSources, null, 2),
    );
    const idsOf = async (type) =>
      (await oaaJson(['query', 'nodes', '--type', type])).values.map((v) => v.properties.id).sort();
    const employees = await idsOf(`OAA.${hrisType}.HRISEmployee`);
    check(
      JSON.stringify(employees) === JSON.stringify(employeeIds),
      `the graph's employees are ${employees.join(', ')}, not the fixture's ${employeeIds.join(', ')}`,
    );
    const groups = await idsOf(`OAA.${hrisType}.HRISGroup`);
    check(
      JSON.stringify(groups) === JSON.stringify(departmentIds),
      `the graph's groups are ${groups.join(', ')}, not the fixture's departments ${departmentIds.join(', ')}`,
    );
    note(
      `provider ${provider.name}, data source ${dataSources[0].name} (${dataSources[0].status}), ` +
        `${employees.length} OAA.${hrisType}.HRISEmployee and ${groups.length} OAA.${hrisType}.HRISGroup nodes`,
    );
  });
} catch (error) {
  const failure = error instanceof StepFailure ? error : new StepFailure(error?.stack ?? String(error));
  process.stderr.write(`\ntest:release FAILED at step "${currentStep}": ${failure.message}\n`);
  if (failure.output) process.stderr.write(`---- output\n${failure.output.trimEnd()}\n----\n`);
  if (registryLog.trim() !== '') process.stderr.write(`---- registry log\n${registryLog.trimEnd()}\n----\n`);
  process.exitCode = 1;
}

if (process.exitCode !== 1) {
  await step('stop the registry, remove the temporary directory', async () => cleanup());
  process.stdout.write('\n== summary\n');
  for (const { name, took } of steps) process.stdout.write(`   ${seconds(took).padStart(8)}  ${name}\n`);
  process.stdout.write(`   ${seconds(performance.now() - total).padStart(8)}  total\n`);
}
process.exit();
