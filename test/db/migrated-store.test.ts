import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { migrateToLatest, migrations, pendingMigrations, openDatabase } from '../../src/db/database.js';
import { PG_URL, createPgSchema, dropPgSchema, openStore, withPg } from '../harness.js';
import { copyMigratedPgSchema, copyMigratedSqlite } from '../shared/migrated-store.js';

// A harness's store starts as a copy of a store migrated once per process (test/shared/migrated-store.ts):
// the copy must be the migrated store, table for table, column for column, constraint, index and row.

/** Everything about a schema the app could tell apart, with the schema's name taken out. */
async function pgCatalog(schema: string): Promise<Record<string, unknown>> {
  return withPg(async (c) => {
    const q = async (text: string) => (await c.query(text, [schema])).rows.map((r) => JSON.stringify(r).replaceAll(schema, 'S'));
    const tables = (await c.query<{ relname: string }>(`select relname from pg_class where relnamespace = $1::regnamespace and relkind = 'r' order by relname`, [schema])).rows.map((r) => r.relname);
    const rows: Record<string, unknown[]> = {};
    for (const t of tables) rows[t] = (await c.query(`select * from ${schema}."${t}" order by 1`)).rows.map((r: Record<string, unknown>) => (t === 'kysely_migration' ? r.name : r));
    return {
      columns: await q(`select c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull, a.attcollation, pg_get_expr(d.adbin, d.adrelid) as def
        from pg_class c join pg_attribute a on a.attrelid = c.oid left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
        where c.relnamespace = $1::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped order by c.relname, a.attname`),
      constraints: await q(`select c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid) as def, k.condeferrable, k.convalidated
        from pg_constraint k join pg_class c on c.oid = k.conrelid where c.relnamespace = $1::regnamespace order by c.relname, k.conname`),
      indexes: await q(`select c.relname, pg_get_indexdef(c.oid) as def from pg_class c where c.relnamespace = $1::regnamespace and c.relkind = 'i' order by c.relname`),
      other: await q(`select relname, relkind from pg_class where relnamespace = $1::regnamespace and relkind not in ('r', 'i') order by relname`),
      rows,
    };
  });
}

describe('a copied store is the migrated store', () => {
  const cleanup: (() => Promise<void>)[] = [];
  after(async () => {
    for (const f of cleanup) await f();
  });

  it('postgres: same tables, columns, defaults, constraints, indexes and rows; the migrator finds nothing to do', async () => {
    const migrated = await openStore('postgres', 'migrated');
    cleanup.push(() => migrated.close());
    await migrateToLatest(migrated.handle);
    const copy = await createPgSchema('copy_');
    cleanup.push(() => dropPgSchema(copy));
    await copyMigratedPgSchema(PG_URL, copy, createPgSchema);
    const [a, b] = [await pgCatalog(migrated.pgSchema!), await pgCatalog(copy)];
    assert.ok((a.columns as unknown[]).length > 100 && (a.indexes as unknown[]).length > 20 && (a.constraints as unknown[]).length > 40, 'a whole store is compared');
    assert.deepEqual((a.rows as Record<string, unknown[]>).kysely_migration, Object.keys(migrations).sort());
    assert.deepEqual(b, a);
    const handle = openDatabase({ databaseUrl: PG_URL, dataDir: os.tmpdir(), pgSchema: copy });
    try {
      assert.deepEqual(await pendingMigrations(handle), []);
      assert.deepEqual(await migrateToLatest(handle), []);
    } finally {
      await handle.close();
    }
  });

  it('sqlite: the same schema and rows; the migrator finds nothing to do', async () => {
    const migrated = await openStore('sqlite', 'migrated');
    cleanup.push(() => migrated.close());
    await migrateToLatest(migrated.handle);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-copy-'));
    cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    await copyMigratedSqlite(process.env.FORMSIGN_TEST_RUN ?? 'alone', dir);
    const read = (file: string) => {
      const db = new SQLite(file, { readonly: true });
      try {
        return {
          schema: db.prepare(`select type, name, tbl_name, sql from sqlite_master order by name`).all(),
          migrations: db.prepare(`select name from kysely_migration order by name`).pluck().all(),
          journal: db.pragma('journal_mode', { simple: true }),
        };
      } finally {
        db.close();
      }
    };
    const [a, b] = [read(path.join(migrated.dataDir, 'formsign.sqlite')), read(path.join(dir, 'formsign.sqlite'))];
    assert.deepEqual(a.migrations, Object.keys(migrations).sort());
    assert.deepEqual(b, a);
    const handle = openDatabase({ dataDir: dir });
    try {
      assert.deepEqual(await migrateToLatest(handle), []);
    } finally {
      await handle.close();
    }
  });
});
