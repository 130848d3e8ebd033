// A local npm registry (verdaccio) for the release test, run as a child process of it:
//   node scripts/local-registry.mjs CONFIG.yaml
// It listens on 127.0.0.1, on a port the system picks (port 0), and tells its parent that port over
// the IPC channel ({ port }). It stops when the parent closes that channel, which also happens when
// the parent dies, so it never outlives the test that started it.
import { once } from 'node:events';
import { runServer } from 'verdaccio';

const [configPath] = process.argv.slice(2);
if (configPath === undefined || process.send === undefined) {
  process.stderr.write('usage: node scripts/local-registry.mjs CONFIG.yaml (started with an IPC channel)\n');
  process.exit(2);
}
process.on('disconnect', () => process.exit(0));

const server = await runServer(configPath);
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
if (address === null || typeof address === 'string') throw new Error(`unexpected server address ${address}`);
process.send({ port: address.port });
