// Runs inside `dbus-run-session` with gnome-keyring unlocked (see src/e2e/auth.test.ts): a sequence of
// `oaa` commands that log in, use, check and remove a key in a real Secret Service. Prints every
// command's exit code and output as JSON.
import { spawnSync } from 'node:child_process';

const bin = process.env.OAA_BIN;
const url = process.env.TEST_URL;
const key = process.env.TEST_API_KEY;
const steps = [
  ['status-before', ['auth', 'status', '--json']],
  ['login-wrong-key', ['auth', 'login', '--url', url, '--api-key-stdin'], `${key}-wrong\n`],
  ['login', ['auth', 'login', '--url', url, '--api-key-stdin'], `${key}\n`],
  ['status', ['auth', 'status', '--json']],
  ['list', ['providers', 'list', '--json']],
  ['logout', ['auth', 'logout', '--json']],
  ['status-after', ['auth', 'status']],
  ['list-after', ['providers', 'list', '--json']],
];
const out = {};
for (const [name, args, input] of steps) {
  const res = spawnSync(process.execPath, [bin, ...args], { input: input ?? '', encoding: 'utf8' });
  out[name] = { code: res.status, stdout: res.stdout, stderr: res.stderr };
}
process.stdout.write(JSON.stringify(out));
