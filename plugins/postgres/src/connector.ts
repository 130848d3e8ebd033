/** The PostgreSQL connector: a cluster's roles, memberships and privileges -> `application` payload. */
import {
  CONNECTOR_API_VERSION,
  defineConnector,
  OaaError,
  type ApplicationPayload,
  type ConnectorContext,
} from '@oaakit/core';
import type pg from 'pg';
import {
  FUNCTIONS_SQL,
  RELATIONS_SQL,
  readDatabases,
  readDefaultAcls,
  readMemberships,
  readRoles,
  readSchemas,
  serverVersionNum,
  streamRows,
  type DatabaseRow,
  type FunctionRow,
  type RelationRow,
} from './catalog.js';
import { PASSWORD_SECRET, postgresConfigSchema, type PostgresConfig } from './config.js';
import { connect, grantConnect, type ConnectOptions } from './connection.js';
import type { PostgresErrorCode } from './error-codes.js';
import { PayloadAssembler } from './payload.js';

type Ctx = ConnectorContext<PostgresConfig, typeof PASSWORD_SECRET>;

function options(ctx: Ctx): ConnectOptions {
  return { config: ctx.config, password: ctx.secrets[PASSWORD_SECRET], baseDir: ctx.baseDir };
}

/** The database the cluster-wide catalogs are read from. */
function firstDatabase(config: PostgresConfig): string {
  return config.databases?.[0] ?? 'postgres';
}

/**
 * The databases to read: those configured, else every one that allows connections. Throws naming
 * each one that does not exist or that the role may not connect to, with the GRANT that fixes it.
 */
function targets(config: PostgresConfig, databases: DatabaseRow[]): DatabaseRow[] {
  const byName = new Map(databases.map((d) => [d.datname, d]));
  const wanted = config.databases ?? databases.filter((d) => d.datallowconn).map((d) => d.datname);
  const missing = wanted.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    throw new OaaError<PostgresErrorCode>(
      `databases ${missing.map((m) => `"${m}"`).join(', ')} do not exist on ${config.host}:${config.port}`,
      { code: 'DATABASE_NOT_READABLE', details: { field: 'databases', missing } },
    );
  }
  const rows = wanted.map((name) => byName.get(name)!);
  const denied = rows.filter((d) => !d.can_connect || !d.datallowconn);
  if (denied.length > 0) {
    const fix = denied.filter((d) => d.datallowconn).map((d) => grantConnect(d.datname, config.user));
    throw new OaaError<PostgresErrorCode>(
      `role "${config.user}" may not connect to ${denied.map((d) => `"${d.datname}"`).join(', ')}` +
        (fix.length > 0 ? `; as an owner or superuser run: ${fix.join(' ')}` : ''),
      {
        code: 'DATABASE_NOT_READABLE',
        details: { field: 'databases', denied: denied.map((d) => d.datname) },
        hints: [
          ...fix,
          ...denied
            .filter((d) => !d.datallowconn)
            .map((d) => `"${d.datname}" does not allow connections (datallowconn)`),
        ],
      },
    );
  }
  return rows;
}

async function inTransaction<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
  // One snapshot for the whole database, and nothing written.
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Reads who can do what in a PostgreSQL cluster through its catalogs, as a plain LOGIN role with
 * CONNECT on each database: roles become local users (LOGIN) and groups (with members, or NOLOGIN),
 * privileges become roles granted on databases, schemas, relations, columns and functions.
 *
 * @example
 * // oaa config
 * { "connector": "postgres", "config": { "host": "db.example.com", "user": "oaa_reader",
 *   "databases": ["hr", "billing"], "ssl": "verify-full", "caFile": "ca.pem" } }
 * // secret "password": the password of oaa_reader
 */
export const postgresConnector = defineConnector({
  id: 'postgres',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'A PostgreSQL cluster: roles, role membership and privileges on every database object',
  configSchema: postgresConfigSchema,
  secrets: [
    {
      name: PASSWORD_SECRET,
      description:
        'password of the PostgreSQL role named by "user" (a LOGIN role with CONNECT on each database)',
    },
  ],

  async check(ctx) {
    const opts = options(ctx);
    const first = await connect(opts, firstDatabase(ctx.config));
    let rows: DatabaseRow[];
    try {
      rows = targets(ctx.config, await readDatabases(first));
    } finally {
      await first.end();
    }
    // has_database_privilege says yes; a connection proves pg_hba.conf agrees.
    for (const db of rows) {
      ctx.signal.throwIfAborted();
      const client = await connect(opts, db.datname);
      await client.end();
    }
  },

  async extract(ctx): Promise<ApplicationPayload> {
    const opts = options(ctx);
    const { config } = ctx;
    const first = await connect(opts, firstDatabase(config));
    let assembler: PayloadAssembler;
    let databases: DatabaseRow[];
    try {
      const version = await serverVersionNum(first);
      const [roles, memberships, all] = [
        await readRoles(first),
        await readMemberships(first, version),
        await readDatabases(first),
      ];
      databases = targets(config, all);
      assembler = new PayloadAssembler(
        config.applicationName ?? `PostgreSQL ${config.host}:${config.port}`,
        roles,
        memberships,
      );
      ctx.logger.info({ roles: roles.length, memberships: memberships.length }, 'read the roles');
    } finally {
      await first.end();
    }
    for (const db of databases) {
      ctx.signal.throwIfAborted();
      const client = await connect(opts, db.datname);
      try {
        await inTransaction(client, async () => {
          assembler.startDatabase(db, await readSchemas(client), await readDefaultAcls(client));
          ctx.progress.start(`relations of ${db.datname}`);
          for await (const batch of streamRows<RelationRow>(client, RELATIONS_SQL)) {
            ctx.signal.throwIfAborted();
            for (const row of batch) assembler.addRelation(row);
            ctx.progress.tick(batch.length);
          }
          ctx.progress.start(`functions of ${db.datname}`);
          for await (const batch of streamRows<FunctionRow>(client, FUNCTIONS_SQL)) {
            ctx.signal.throwIfAborted();
            for (const row of batch) assembler.addFunction(row);
            ctx.progress.tick(batch.length);
          }
        });
      } finally {
        await client.end();
      }
    }
    ctx.logger.info({ databases: databases.length, grants: assembler.grants }, 'read the privileges');
    if (assembler.unknownPrivileges.size > 0) {
      ctx.logger.warn(
        { privileges: [...assembler.unknownPrivileges] },
        'privileges this connector does not know were left out',
      );
    }
    return assembler.build();
  },
});
