/**
 * Run as a child process by the Samba harness test: starts a domain controller on a copy of the
 * template named by the environment, prints its pid and directory, and waits to be killed. The test
 * kills this process with SIGKILL, as a crashed or interrupted test run would be, and checks the
 * server died too.
 */
import { startSambaServer, type SambaTemplate } from './samba-server.js';

const described = JSON.parse(process.env.OAAKIT_SAMBA_TEMPLATE ?? '{}') as Omit<SambaTemplate, 'remove'>;
const server = await startSambaServer({ ...described, remove: () => Promise.resolve() });
process.stdout.write(`${JSON.stringify({ pid: server.pid, dir: server.dir })}\n`);
// Keep the process alive until it is killed.
setInterval(() => undefined, 60_000);
