/**
 * `@oaakit/plugin-postgres/testing`: throwaway PostgreSQL servers from the machine's own PostgreSQL
 * binaries (Debian's `postgresql` package), for tests and benchmarks of this connector and of
 * configurations built on it. Each server listens on 127.0.0.1 on a random port and dies with the
 * process that started it.
 */
export {
  createTemplate,
  pgBinDir,
  startPgServer,
  sweepLeftovers,
  type PgServer,
  type PgServerOptions,
  type PgTemplate,
} from './pg-server.js';
