/**
 * Run as a child process by the harness test: starts a server on a copy of the template described
 * by the environment, prints its port and directory, and waits to be killed. The test kills this
 * process with SIGKILL, as a crashed or interrupted test run would be, and checks the server died too.
 */
import { startPgServer, type PgTemplate } from '../testing/index.js';

const described = JSON.parse(process.env.OAAKIT_PG_TEMPLATE ?? '{}') as Omit<PgTemplate, 'remove'>;
const server = await startPgServer({ ...described, remove: () => Promise.resolve() });
process.stdout.write(`${JSON.stringify({ port: server.port, dir: server.dir })}\n`);
// Keep the process alive until it is killed.
setInterval(() => undefined, 60_000);
