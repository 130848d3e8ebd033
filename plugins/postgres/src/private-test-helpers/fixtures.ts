/**
 * Loads the fixture cluster (`plugins/postgres/fixtures/*.sql`) into a test server: cluster roles,
 * then an HR database and a billing database. Every LOGIN role gets a fresh random password.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PgServer } from '../testing/index.js';

const FIXTURES = new URL('../../fixtures/', import.meta.url);

/** The databases of the fixture cluster and the role that owns each. */
export const FIXTURE_DATABASES = { hr: 'hr_owner', billing: 'app_owner' } as const;

/** The role the connector signs in as: LOGIN and CONNECT on each database, nothing more. */
export const READER_ROLE = 'oaa_reader';

export interface LoadedFixtures {
  /** Password of every LOGIN role of the fixtures, by role name. */
  passwords: Record<string, string>;
  databases: (keyof typeof FIXTURE_DATABASES)[];
}

async function script(name: string): Promise<string> {
  return readFile(new URL(name, FIXTURES), 'utf8');
}

export async function loadFixtures(server: PgServer): Promise<LoadedFixtures> {
  const passwords: Record<string, string> = {};
  const admin = await server.connectAsSuperuser();
  try {
    await admin.query(await script('00-roles.sql'));
    const { rows } = await admin.query<{ rolname: string }>(
      `SELECT rolname FROM pg_roles WHERE rolcanlogin AND rolname <> current_user ORDER BY rolname`,
    );
    for (const { rolname } of rows) {
      const password = randomBytes(9).toString('hex');
      passwords[rolname] = password;
      // Identifiers and the literal come from the fixtures and hex, never from input.
      await admin.query(`ALTER ROLE "${rolname}" PASSWORD '${password}'`);
    }
    for (const [db, owner] of Object.entries(FIXTURE_DATABASES))
      await admin.query(`CREATE DATABASE ${db} OWNER ${owner}`);
  } finally {
    await admin.end();
  }
  for (const [db, file] of [
    ['hr', '10-hr.sql'],
    ['billing', '20-billing.sql'],
  ] as const) {
    const client = await server.connectAsSuperuser(db);
    try {
      await client.query(await script(file));
    } finally {
      await client.end();
    }
  }
  return { passwords, databases: ['hr', 'billing'] };
}
