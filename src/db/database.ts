import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider, type SqliteDatabase } from 'kysely';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_lean_form_writes.js';
import * as m0003 from './migrations/0003_sending.js';
import * as m0004 from './migrations/0004_worker.js';
import * as m0005 from './migrations/0005_signing.js';
import * as m0006 from './migrations/0006_webhooks.js';
import * as m0007 from './migrations/0007_sealed_files.js';
import * as m0008 from './migrations/0008_limits.js';
import * as m0009 from './migrations/0009_template_versions.js';
import * as m0010 from './migrations/0010_dashboard.js';
import * as m0011 from './migrations/0011_claimable_jobs.js';
import * as m0012 from './migrations/0012_current_field_warnings.js';
import * as m0014 from './migrations/0014_completed_copy_and_notices.js';
import * as m0019 from './migrations/0019_locales.js';
// Dashboard (issue 24).
import * as m0020 from './migrations/0020_daily_usage.js';
import * as m0021 from './migrations/0021_signer_roles.js';
import * as m0013 from './migrations/0013_lifecycle.js';
import * as m0015 from './migrations/0015_form_sealing.js';
import * as m0017 from './migrations/0017_idempotency_and_events_api.js';
import * as m0018 from './migrations/0018_embed_origins.js';
import * as m0016 from './migrations/0016_signing_evidence.js';
// Evidence: the consent's language (issues 25, 29).
import * as m0023 from './migrations/0023_consent_locale.js';
import * as m0024 from './migrations/0024_sealed_audit_locale.js';
// Data lifecycle (issue 40).
import * as m0025 from './migrations/0025_event_order.js';
import * as m0030 from './migrations/0030_signer_checks.js';
import * as m0035 from './migrations/0035_form_purge.js';
import * as m0036 from './migrations/0036_retention_and_hold.js';
import * as m0045 from './migrations/0045_unmetered_accounts.js';
import * as m0050 from './migrations/0050_dashboard_access_emails.js';
import * as m0060 from './migrations/0060_data_subject_requests.js';
import * as m0055 from './migrations/0055_signature_meaning.js';
import * as m0056 from './migrations/0056_check_log_ip.js';
import * as m0065 from './migrations/0065_signing_drafts.js';
import * as m0070 from './migrations/0070_teams.js';
import * as m0075 from './migrations/0075_sso_and_two_factor.js';
import * as m0080 from './migrations/0080_bulk_sends.js';
import * as m0085 from './migrations/0085_recipient_roles_and_messages.js';
import * as m0086 from './migrations/0086_account_branding.js';
import * as m0090 from './migrations/0090_link_replacement.js';
import * as m0100 from './migrations/0100_form_attachments.js';
import * as m0105 from './migrations/0105_document_pages.js';
import { Lru } from '../lib/lru.js';
import { BatchState, groupCommit, type UnitWatchdog } from './group-commit.js';
import type { Db, ReplayableTransact, Transact } from './handles.js';
import { namedStatementPool } from './pg-named-statements.js';
import { introspectingOneSchema } from './pg-schema-introspector.js';
import { createPgPool, type OnConnectionError, type PgConnectionName } from './pg-pool.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { openWalFile } from './sqlite-open.js';
import { createWalSync, threadFdatasync, type Fdatasync } from './wal-sync.js';
import type { Database } from './tables.js';
import { guardDialect, transactEach, transactEachReplayable } from './transact.js';
import type { MigrationLock } from './migration-lock.js';

export type Dialect = 'sqlite' | 'postgres';

/** PostgreSQL: the longest a statement waits for a lock. */
export const PG_LOCK_TIMEOUT_MS = 5000;
/** PostgreSQL: the longest a request waits for a new connection. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: Dialect;
  /** The one way use cases open a write transaction (group commit on SQLite). */
  readonly transact: Transact;
  /**
   * For the worker's own bookkeeping whose loss to a power failure is repaired by running it again: a
   * job's claim, lease renewal, the publisher's feed, and the outcome of a job whose definition says
   * `replayableOutcome`. Its own type (handles.ts): it cannot be passed where a `Transact` is expected.
   */
  readonly transactReplayable: ReplayableTransact;
  /** The PostgreSQL schema in use when not the default one. */
  readonly pgSchema?: string | undefined;
  /** SQLite opened while the disk was full (sqlite-open.ts): reads only until space is freed. */
  readonly openedOnFullDisk?: boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; absent → SQLite file `formsign.sqlite` in dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to use (tests give each run a fresh one). */
  pgSchema?: string;
  /** Called with a background checkpoint's error (the store keeps working; the backstop takes over). */
  onCheckpointError?: (message: string) => void;
  /** PostgreSQL: a connection failed or was ended by the server (the pool replaces it; pg-pool.ts). */
  onConnectionError?: OnConnectionError;
  /** SQLite: WAL frames after which the WAL is started over (default 4,000, about 16 MB). */
  walRestartFrames?: number;
  /** SQLite: how the WAL is flushed (tests watch it); default a thread of its own (wal-sync.ts). */
  walFlush?: Fdatasync;
  /** SQLite: what becomes of a unit that holds the group commit too long (group-commit.ts). */
  unitWatchdog?: UnitWatchdog;
  /**
   * PostgreSQL: run repeated statements as named prepared statements on each connection (default
   * true). Off for a pooler in transaction mode (PgBouncer), where a connection's prepared
   * statements are not the next transaction's.
   */
  pgPreparedStatements?: boolean;
}

export function openDatabase(opts: DatabaseOptions): DatabaseHandle {
  if (opts.databaseUrl) {
    // Repeated statements run prepared on each connection (pg-named-statements.ts), unless turned off.
    const prepared = opts.pgPreparedStatements === false ? (pool: pg.Pool) => pool : namedStatementPool;
    // Introspection (the migrator's) reads this store's schema only (pg-schema-introspector.ts says why).
    const connect = (name: PgConnectionName, max: number, extra = '') => new Kysely<Database>({
      dialect: guardDialect(introspectingOneSchema(new PostgresDialect({
        pool: prepared(createPgPool(name, {
          connectionString: opts.databaseUrl,
          max,
          // An unreachable server (a partition, a failover in progress) answers 503 within this, not never.
          connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
          // A request never waits on a lock (an operator's ALTER, a stuck session) for longer than this: it
          // fails with 55P03, which answers 503 with Retry-After (http/error-handler.ts).
          options: `-c lock_timeout=${PG_LOCK_TIMEOUT_MS}${opts.pgSchema ? ` -c search_path=${opts.pgSchema}` : ''}${extra}`,
        }, opts.onConnectionError ?? (() => undefined))),
      }), opts.pgSchema)),
    });
    const db = connect('main', 10);
    // The replayable transactions' own few connections commit without waiting for the WAL flush: set
    // at connection start, so it costs no statement per transaction (and no other use can inherit it).
    const relaxed = connect('replayable', 4, ' -c synchronous_commit=off');
    return {
      db, dialect: 'postgres', pgSchema: opts.pgSchema, transact: transactEach(db), transactReplayable: transactEachReplayable(relaxed),
      close: async () => { await relaxed.destroy(); await db.destroy(); },
    };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const filePath = path.join(opts.dataDir, 'formsign.sqlite');
  // On a full disk: exclusive locking, reads served, writes refused until space is freed (sqlite-open.ts).
  const { file, exclusive } = openWalFile(filePath);
  // NORMAL: a commit writes the WAL without flushing it; the group commit (transact.ts) then flushes
  // it on the thread pool and only then settles the batch's promises (wal-sync.ts), so a 2xx still
  // survives power loss while the event loop never waits for the disk. Under NORMAL SQLite syncs the
  // WAL itself before each checkpoint, so frames a checkpoint moves are on disk first.
  file.pragma('synchronous = NORMAL');
  const flushThread = opts.walFlush ? undefined : threadFdatasync();
  const walSync = createWalSync(`${filePath}-wal`, opts.walFlush ?? flushThread);
  // better-sqlite3 waits for a lock on the event loop: 200 ms outlasts any write transaction the
  // server or an operator command holds (a few ms, fsync included), and bounds the stall when one is
  // held longer; past it the request answers 503 with Retry-After (http/database-busy.ts).
  file.pragma('busy_timeout = 200');
  file.pragma('foreign_keys = ON');
  // Temporary tables and indexes (sorting, subqueries) stay in memory instead of temp files.
  file.pragma('temp_store = MEMORY');
  // A worker thread copies the WAL into the database and, once the WAL is long, asks for a checkpoint
  // here between two commits, which lets the next write start the WAL over (sqlite-checkpointer.ts).
  // SQLite's own automatic checkpoint, far off, is the backstop should the worker die; the size limit
  // hands the disk back after a burst.
  file.pragma('wal_autocheckpoint = 50000');
  file.pragma('journal_size_limit = 67108864');
  let restartWanted = false;
  // Started by the first commit: until something is written there is no WAL to copy, and a read-only
  // operator command (`accounts list`) then never pays for the thread (issue 36 item 3).
  // Exclusive locking (a start on a full disk) leaves no other connection in: SQLite's own checkpoint runs.
  let checkpointer: { stop(): Promise<void> } | undefined;
  const checkpointerStarted = () => (checkpointer ??= exclusive ? { stop: async () => undefined } : startCheckpointer(filePath, {
    onRestartWanted: () => (restartWanted = true),
    ...(opts.walRestartFrames ? { restartFrames: opts.walRestartFrames } : {}),
    ...(opts.onCheckpointError ? { onError: opts.onCheckpointError } : {}),
  }));
  const batch = new BatchState();
  const statements = withStatementCache(file, batch);
  const db = new Kysely<Database>({ dialect: guardDialect(new SqliteDialect({ database: statements })) });
  const commits = groupCommit(db, {
    run: (sqlText, parameters) => void statements.prepare(sqlText).run(parameters),
    inTransaction: () => file.inTransaction,
    durable: () => walSync.durable(),
    afterCommit() {
      checkpointerStarted();
      if (!restartWanted) return;
      restartWanted = false;
      file.pragma('wal_checkpoint(PASSIVE)');
    },
  }, batch, opts.unitWatchdog);
  return {
    db,
    dialect: 'sqlite',
    ...(exclusive ? { openedOnFullDisk: true } : {}),
    transact: commits.transact,
    transactReplayable: commits.transactReplayable,
    async close() {
      await checkpointer?.stop();
      // Before the connection closes: closing the last one deletes the WAL.
      await walSync.close();
      await flushThread?.stop();
      await db.destroy();
    },
  };
}

/**
 * Kysely prepares every query anew; with better-sqlite3 preparing costs more than running a small
 * query. Compiled SQL is stable per query shape, so statements are reused. The bound is generous
 * (each list has a statement per page size) and least recently used go first, so a client cycling
 * through page sizes cannot push the hot inserts out.
 */
function withStatementCache(file: SQLite.Database, batch: BatchState, max = 2000): SqliteDatabase {
  const cache = new Lru<string, SQLite.Statement>(max);
  return {
    close: () => file.close(),
    prepare(sqlText: string) {
      // Every statement passes here (Kysely prepares each query it runs), so this is where one that
      // would run outside an abandoned batch transaction is stopped.
      batch.assertUsable(file.inTransaction);
      let st = cache.get(sqlText);
      if (!st) {
        st = file.prepare(sqlText);
        cache.set(sqlText, st);
      }
      return st as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
}

export const migrations: Record<string, Migration> = {
  // In name order, which is the order Kysely applies them in.
  '0001_initial': m0001,
  '0002_lean_form_writes': m0002,
  '0003_sending': m0003,
  '0004_worker': m0004,
  '0005_signing': m0005,
  '0006_webhooks': m0006,
  '0007_sealed_files': m0007,
  '0008_limits': m0008,
  '0009_template_versions': m0009,
  '0010_dashboard': m0010,
  '0011_claimable_jobs': m0011,
  '0012_current_field_warnings': m0012,
  '0013_lifecycle': m0013,
  '0014_completed_copy_and_notices': m0014,
  '0015_form_sealing': m0015,
  '0016_signing_evidence': m0016,
  '0017_idempotency_and_events_api': m0017,
  '0018_embed_origins': m0018,
  '0019_locales': m0019,
  '0020_daily_usage': m0020,
  '0021_signer_roles': m0021,
  '0023_consent_locale': m0023,
  '0024_sealed_audit_locale': m0024,
  '0025_event_order': m0025,
  '0030_signer_checks': m0030,
  '0035_form_purge': m0035,
  '0036_retention_and_hold': m0036,
  '0045_unmetered_accounts': m0045,
  '0050_dashboard_access_emails': m0050,
  '0060_data_subject_requests': m0060,
  '0055_signature_meaning': m0055,
  '0056_check_log_ip': m0056,
  '0065_signing_drafts': m0065,
  '0070_teams': m0070,
  '0075_sso_and_two_factor': m0075,
  '0080_bulk_sends': m0080,
  '0085_recipient_roles_and_messages': m0085,
  '0086_account_branding': m0086,
  '0090_link_replacement': m0090,
  '0100_form_attachments': m0100,
  '0105_document_pages': m0105,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Runs every pending migration; the same list on both dialects. Returns the names applied. With a
 * lock (migration-lock.ts), waits its turn behind another process migrating the same database.
 */
export async function migrateToLatest(handle: Pick<DatabaseHandle, 'db' | 'pgSchema'>, lock?: MigrationLock): Promise<string[]> {
  const migrator = migratorOf(handle);
  const run = async () => {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  };
  return lock ? lock.hold(run) : run();
}

/** The migrations this version has that the database has not applied yet (MIGRATE_ON_START=off checks them). */
export async function pendingMigrations(handle: Pick<DatabaseHandle, 'db' | 'pgSchema'>): Promise<string[]> {
  const all = await migratorOf(handle).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

// Kysely's migrator qualifies its bookkeeping tables with this schema (the introspection it runs reads
// only the store's schema: pg-schema-introspector.ts). Migrations are written on parallel branches, so
// one merged later may sort before one a store has already applied (0095 after 0100 did, and every
// existing store refused to start): unordered ones are allowed, still applied in name order, each once.
function migratorOf(handle: Pick<DatabaseHandle, 'db' | 'pgSchema'>): Migrator {
  return new Migrator({ db: handle.db, provider, allowUnorderedMigrations: true, ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}) });
}

export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
