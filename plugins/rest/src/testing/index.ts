/**
 * `@oaakit/plugin-rest/testing`: the throwaway Redmine of this package's tests, for benchmarks and
 * tests outside the package (`npm run bench:redmine`): `startRedmine` (Debian's Redmine on SQLite,
 * a random port, dying with the process) and the SQL of a large generated Redmine.
 */
export { startRedmine, sweepLeftovers, type RedmineOptions, type RedmineServer } from './redmine-server.js';
export { redmineBulkCounts, redmineBulkSql, type RedmineBulkShape } from './redmine-bulk.js';
