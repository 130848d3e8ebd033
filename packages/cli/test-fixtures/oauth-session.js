// Runs inside `dbus-run-session` with gnome-keyring unlocked (see src/e2e/auth-oauth.test.ts): an
// OAuth2 login with `oaa auth login --oauth --no-browser`, whose printed URL is followed with fetch
// (the emulator answers it at once through headless consent), then commands that use the login.
// Prints every step's outcome as JSON.
import { spawn, spawnSync } from 'node:child_process';

const bin = process.env.OAA_BIN;
const url = process.env.TEST_URL;
const adminKey = process.env.TEST_ADMIN_KEY;
const clientId = process.env.TEST_CLIENT_ID;
const out = {};

const oaa = (args, env = {}) => {
  const res = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
};
const admin = async (method, path, body) => {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
};

/** Starts a login, waits for the printed URL, lets `follow` act on it, and waits for the exit. */
async function login(name, args, follow) {
  const child = spawn(
    process.execPath,
    [bin, 'auth', 'login', '--url', url, '--oauth', '--client-id', clientId, '--no-browser', ...args],
    {
      env: process.env,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  const printed = new Promise((resolve) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const match = /Open this URL in a browser to log in: (\S+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.on('exit', () => resolve(undefined));
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const authorizationUrl = await printed;
  const steps = authorizationUrl === undefined ? {} : await follow(authorizationUrl);
  const code = await exited;
  out[name] = { code, stdout, stderr, authorizationUrl, ...steps };
}

/** What a browser does: the authorize URL redirects (headless consent) to the loopback callback. */
async function browse(authorizationUrl) {
  const authorize = await fetch(authorizationUrl, { redirect: 'manual' });
  const callback = authorize.headers.get('location');
  const redirectUri = new URL(authorizationUrl).searchParams.get('redirect_uri');
  // A forged answer with another state is refused, and the login keeps waiting for the real one.
  const forged = new URL(redirectUri);
  forged.searchParams.set('code', 'forged');
  forged.searchParams.set('state', 'not-the-state');
  const forgedRes = await fetch(forged);
  const res = await fetch(callback);
  return {
    authorizeStatus: authorize.status,
    callback,
    forgedStatus: forgedRes.status,
    callbackStatus: res.status,
    callbackPage: await res.text(),
  };
}

await admin('POST', '/_emulator/oauth/auto_consent', { user: 'cli@example.com', decision: 'cancel' });
await login('login-cancelled', [], browse);
await admin('POST', '/_emulator/oauth/auto_consent', { user: 'cli@example.com', decision: 'allow' });
await login('login', ['--scope', 'profile', '--scope', 'oaa:integrations', '--json'], browse);
out['status'] = oaa(['auth', 'status', '--json']);
out['list'] = oaa(['providers', 'list', '--json']);
// 12 hours later on the service's clock the access token has expired: the next command refreshes it
// and stores the rotated tokens, so the one after uses them without a refresh.
await admin('POST', '/_emulator/clock', { advance_ms: 12 * 3600_000 });
await admin('DELETE', '/_emulator/calls');
out['list-after-expiry'] = oaa(['providers', 'list', '--json']);
out['list-again'] = oaa(['providers', 'list', '--json']);
out['token-calls'] = (await admin('GET', '/_emulator/calls')).values
  .filter((c) => c.path === '/oauth/token')
  .map((c) => c.status);
await admin('POST', `/_emulator/oauth_apps/${clientId}:revoke`, {});
out['list-revoked'] = oaa(['providers', 'list', '--json']);
out['logout'] = oaa(['auth', 'logout', '--json']);
process.stdout.write(JSON.stringify(out));
