import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { migrations, type DatabaseHandle } from '../../../src/db/database.js';
import { openStore, type DialectName } from '../../harness.js';

/** Applies the migrations up to and including `last`, as a store last migrated then: for tests of a later migration on its data. */
export async function migrateUpTo(handle: Pick<DatabaseHandle, 'db' | 'pgSchema'>, last: string): Promise<void> {
  if (!(last in migrations)) throw new Error(`no migration ${last}`);
  const provider: MigrationProvider = { getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last)) };
  const migrator = new Migrator({ db: handle.db, provider, ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Rows written as at an older migration: no table types, only the columns that migration had. */
export type OldDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * A fresh store migrated up to `last`, with one paid account written as then: where a test of a later
 * migration writes its old rows.
 */
export async function storeAt(dialect: DialectName, prefix: string, last: string, accountId: string, at: string): Promise<{ store: Awaited<ReturnType<typeof openStore>>; db: OldDb }> {
  const store = await openStore(dialect, prefix);
  await migrateUpTo(store.handle, last);
  const db = store.handle.db as unknown as OldDb;
  await db.insertInto('accounts').values({ id: accountId, name: 'Migrating', email: null, plan: 'paid', monthly_limit: null, per_minute_limit: null, created_at: at, updated_at: at }).execute();
  return { store, db };
}
