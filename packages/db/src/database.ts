import { multiHostUrl } from './database-url.js';
import { connectClient } from './multi-host.js';

/**
 * The database a URL names and the same URL naming `postgres` instead, where it can be created or dropped. A
 * multi-host URL keeps its hosts and `target_session_attrs`, so the statement runs on the primary.
 */
function databaseAndAdminUrl(databaseUrl: string): { name: string; adminUrl: string } {
  const multi = multiHostUrl(databaseUrl);
  let name: string;
  let adminUrl: string;
  if (multi) {
    name = multi.database;
    adminUrl = multi.withDatabase('postgres');
  } else {
    const url = new URL(databaseUrl);
    name = decodeURIComponent(url.pathname.replace(/^\//, ''));
    url.pathname = '/postgres';
    adminUrl = url.toString();
  }
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`database name "${name}" must be letters, digits and _`);
  return { name, adminUrl };
}

/** Creates the database named in the URL when it does not exist (connecting to `postgres` to do so). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const { name, adminUrl } = databaseAndAdminUrl(databaseUrl);
  const client = await connectClient(adminUrl);
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } catch (error) {
      // Two processes starting together: the other one created it first. PostgreSQL reports that as
      // duplicate_database (42P04) or, when both got past its name check, as a unique violation on pg_database.
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code !== '42P04' && !(code === '23505' && constraint === 'pg_database_datname_index')) throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

/** Drops a database (tests only); terminates its connections first. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const { name, adminUrl } = databaseAndAdminUrl(databaseUrl);
  const client = await connectClient(adminUrl);
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
