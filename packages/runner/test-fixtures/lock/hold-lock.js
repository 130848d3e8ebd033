// Runs as its own process for lock.test.ts: tries to take the lock at argv[2] with the lease argv[3]
// (ms), prints one JSON line saying whether it got it, and holds it (heartbeating) until stdin ends.
import { acquireLock } from '../../dist/state/lock.js';

const [path, leaseMs] = process.argv.slice(2);
try {
  const lock = await acquireLock(path, { leaseMs: Number(leaseMs), owner: 'hold-lock fixture' });
  process.stdout.write(`${JSON.stringify({ locked: true, holder: lock.holder })}\n`);
  process.stdin.on('end', () => void lock.release().then(() => process.exit(0)));
  process.stdin.resume();
} catch (error) {
  process.stdout.write(`${JSON.stringify({ locked: false, code: error.code, message: error.message })}\n`);
}
