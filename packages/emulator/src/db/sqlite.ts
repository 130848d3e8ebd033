/**
 * The SQLite binding for this Node version. better-sqlite3 12 (built from source here) is the binding
 * on Node 20; on Node 24 its statements can abort the process when they are garbage-collected
 * (https://github.com/WiseLibs/better-sqlite3/issues/1515, not fixed in 12.x). better-sqlite3 13 is
 * the Node-API port that fixes it, ships prebuilt binaries, and needs Node >= 22, so it is used from
 * Node 22 on. Both have the same API.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from './busy.js';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

/** The package name of the binding suited to the running Node. */
export const SQLITE_BINDING = major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

/** The `better-sqlite3` constructor suited to the running Node. */
export const Database = require(SQLITE_BINDING) as typeof BetterSqlite3;

/**
 * What a worker thread needs to open its own connection to the database `file` as `openDatabase`
 * does: the file, where the binding is, and the busy timeout. Worker code (run with `eval`) loads
 * the binding from that path.
 */
export function sqliteWorkerData(file: string): { file: string; binding: string; timeout: number } {
  return { file, binding: require.resolve(SQLITE_BINDING), timeout: BUSY_TIMEOUT_MS };
}
