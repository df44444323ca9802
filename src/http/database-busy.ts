// Errors that mean "the database is busy right now", not "the request is wrong" nor "the code is
// broken": a client should retry shortly (503 with Retry-After), and nothing needs fixing.
//
// - SQLite: another connection (an operator command, a second process) holds the write lock past
//   `busy_timeout` (SQLITE_BUSY and its extended codes; SQLITE_LOCKED within one connection).
// - PostgreSQL: lock_not_available (55P03, NOWAIT / lock_timeout), serialization_failure (40001),
//   deadlock_detected (40P01), too_many_connections (53300), cannot_connect_now (57P03), and a
//   prepared statement gone stale on its connection after a migration (db/pg-named-statements.ts).
// - PostgreSQL unavailable: no connection could be had, or the server ended it mid-statement (a
//   restart, a failover, pg_terminate_backend): db/pg-pool.ts turns each into FORMSIGN_DB_UNAVAILABLE.

const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;
const PG_BUSY = new Set(['55P03', '40001', '40P01', '53300', '57P03', 'FORMSIGN_STALE_STATEMENT']);
const PG_UNAVAILABLE = 'FORMSIGN_DB_UNAVAILABLE';

export function isDatabaseBusy(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return SQLITE_BUSY.test(code) || PG_BUSY.has(code) || code === PG_UNAVAILABLE;
}

/** Of the busy errors, the ones that mean the database could not be reached at all. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: unknown }).code === PG_UNAVAILABLE;
}
