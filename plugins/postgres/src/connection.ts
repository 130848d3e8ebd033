/** Connections to the cluster: TLS as configured, the statement timeout, and errors that say what to fix. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OaaError } from '@oaakit/core';
import pg from 'pg';
import type { PostgresConfig } from './config.js';
import type { PostgresErrorCode } from './error-codes.js';

/** SQLSTATEs of a refused sign-in: invalid_password, invalid_authorization_specification. */
const REFUSED = new Set(['28P01', '28000']);

export interface ConnectOptions {
  config: PostgresConfig;
  password: string;
  baseDir?: string | undefined;
}

async function ssl(options: ConnectOptions): Promise<pg.ClientConfig['ssl']> {
  const { config } = options;
  if (config.ssl === 'disable') return false;
  if (config.ssl === 'require') return { rejectUnauthorized: false };
  if (config.caFile === undefined) return { rejectUnauthorized: true };
  const file = resolve(options.baseDir ?? process.cwd(), config.caFile);
  try {
    return { rejectUnauthorized: true, ca: await readFile(file, 'utf8') };
  } catch (error) {
    throw new OaaError<PostgresErrorCode>(`caFile ${file} cannot be read: ${(error as Error).message}`, {
      code: 'SOURCE_UNREACHABLE',
      details: { field: 'caFile' },
    });
  }
}

/** A connected client on `database`; the caller ends it. */
export async function connect(options: ConnectOptions, database: string): Promise<pg.Client> {
  const { config } = options;
  const client = new pg.Client({
    host: config.host,
    port: config.port,
    user: config.user,
    password: options.password,
    database,
    ssl: await ssl(options),
    statement_timeout: config.statementTimeoutMs,
    application_name: 'oaakit',
  });
  // A connection dropped later is reported by the query that fails; this keeps it from crashing the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const where = `${config.host}:${config.port} database "${database}"`;
    if (code !== undefined && REFUSED.has(code)) {
      throw new OaaError<PostgresErrorCode>(
        `PostgreSQL at ${where} refused role "${config.user}": ${(error as Error).message}`,
        {
          code: 'SOURCE_CREDENTIALS_REFUSED',
          cause: error,
          hints: [
            `check the secret "password" and that role "${config.user}" has LOGIN and a matching pg_hba.conf entry`,
          ],
        },
      );
    }
    if (code === '42501' || code === '3D000') {
      const fix =
        code === '42501' ? `; as an owner or superuser run: ${grantConnect(database, config.user)}` : '';
      throw new OaaError<PostgresErrorCode>(`cannot connect to ${where}: ${(error as Error).message}${fix}`, {
        code: 'DATABASE_NOT_READABLE',
        cause: error,
        hints: code === '42501' ? [grantConnect(database, config.user)] : [],
      });
    }
    throw new OaaError<PostgresErrorCode>(
      `cannot reach PostgreSQL at ${where}: ${(error as Error).message}`,
      {
        code: 'SOURCE_UNREACHABLE',
        retryable: true,
        cause: error,
      },
    );
  }
  return client;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The statement that lets `user` connect to `database`. */
export function grantConnect(database: string, user: string): string {
  return `GRANT CONNECT ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(user)};`;
}
