#!/usr/bin/env node
/**
 * `oaa-emulator [--port N] [--host ADDR] [--tls] [--db FILE] [--api-key KEY]... [--smtp URL] [--quiet]`: runs the
 * emulator until SIGINT or SIGTERM, then closes it cleanly; unexpected errors are logged to stderr.
 */
import { runCli } from './cli.js';

const output = {
  out: (t: string) => void process.stdout.write(t),
  err: (t: string) => void process.stderr.write(t),
};

runCli(process.argv.slice(2), output).then(
  (result) => {
    if ('exitCode' in result) {
      process.exitCode = result.exitCode;
      return;
    }
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      result.emulator.close().then(
        () => process.exit(0),
        (err: unknown) => {
          output.err(`oaa-emulator: error while stopping: ${(err as Error).message}\n`);
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  },
  (err: unknown) => {
    output.err(`oaa-emulator: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
