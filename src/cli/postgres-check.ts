import type pg from 'pg';
import { loadOnFirstUse } from '../lib/load-on-first-use.js';

// Loaded only when DATABASE_URL is set (db/pg-pool.ts says why).
const loadPg = loadOnFirstUse<typeof pg>('pg');

// Before anything opens a pool on DATABASE_URL (or the tests on TEST_DATABASE_URL), one connection
// finds out whether the server is there and the database exists, so a person reads one sentence
// naming the address and what to run instead of a pool's stack trace.

/** The URL as it may be printed: the password is never shown. */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/** `code`: the failed connection's error code (ECONNREFUSED, a SQLSTATE), for a caller that waits on some. */
export type PostgresCheck = { ok: true; created: boolean } | { ok: false; problem: string; code?: string };

interface PgError {
  code?: string;
  message?: string;
}

function databaseName(u: URL): string {
  return decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
}

/** `createdb` as this login, or, when the login may not create databases, owned by it (run by one who may). */
function createdbCommand(u: URL, name: string, asOwner: boolean): string {
  const user = decodeURIComponent(u.username);
  return `createdb -h ${u.hostname || '127.0.0.1'} -p ${u.port || '5432'}${user ? ` ${asOwner ? '-O' : '-U'} ${user}` : ''} ${name}`;
}

async function query(url: string, sql: string): Promise<void> {
  const client = new (loadPg().Client)({ connectionString: url, connectionTimeoutMillis: 5000 });
  // A server that goes away mid-check emits 'error' on the client; the awaited call reports it.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why a connection failed, in words; network errors carry only a code (an AggregateError has no message). */
function reason(e: PgError): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused: nothing listens there';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case '28P01':
    case '28000':
      return `the login was refused (${e.message ?? e.code})`;
    default:
      return e.message || e.code || 'unknown error';
  }
}

/**
 * Connects once. A missing database is created when `create` is set and the login may create
 * databases; otherwise the problem names the URL (without password) and the command that fixes it.
 */
export async function checkPostgres(url: string, opts: { create: boolean; variable: string }): Promise<PostgresCheck> {
  const shown = withoutPassword(url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, problem: `${opts.variable} is not a valid URL.` };
  }
  try {
    await query(url, 'select 1');
    return { ok: true, created: false };
  } catch (error) {
    const e = error as PgError;
    const name = databaseName(u);
    if (e.code === '3D000') {
      const other = `or point ${opts.variable} at a database that exists`;
      if (!opts.create) return { ok: false, problem: `Database "${name}" does not exist on ${shown}; create it with \`${createdbCommand(u, name, false)}\`, ${other}.` };
      const admin = new URL(u);
      admin.pathname = '/postgres';
      try {
        await query(admin.toString(), `create database "${name.replaceAll('"', '""')}"`);
        return { ok: true, created: true };
      } catch (createError) {
        // Another process may have created it between the two connections.
        if ((createError as PgError).code === '42P04') return { ok: true, created: false };
        const fix = `as a PostgreSQL user who may, run \`${createdbCommand(u, name, true)}\`, ${other}`;
        return { ok: false, problem: `Database "${name}" does not exist on ${shown} and could not be created (${reason(createError as PgError)}); ${fix}.` };
      }
    }
    if (e.code === '28P01' || e.code === '28000') {
      return { ok: false, problem: `PostgreSQL at ${shown}: ${reason(e)}; check the user and password in ${opts.variable}.` };
    }
    return { ok: false, problem: `Cannot reach PostgreSQL at ${shown} (${reason(e)}); start PostgreSQL there or set ${opts.variable} to one that runs.`, ...(e.code ? { code: e.code } : {}) };
  }
}
