/**
 * Run as a child process by the harness test: starts a Redmine, prints its URL and directory, and
 * waits to be killed. The test kills this process with SIGKILL, as a crashed or interrupted test
 * run would be, and checks that the server died too.
 */
import { startRedmine } from '../testing/redmine-server.js';

const server = await startRedmine();
process.stdout.write(`${JSON.stringify({ url: server.url, dir: server.dir })}\n`);
// Keep the process alive until it is killed.
setInterval(() => undefined, 60_000);
