import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrateToLatest } from '../../src/db/database.js';
import { PG_URL, createPgSchema, dropPgSchema, openStore } from '../harness.js';

// Test files that failed only beside others on PostgreSQL ("relation "t_….kysely_migration" does not
// exist", "column "created_at" of relation "templates" does not exist") were Kysely's migrator reading
// every table of every schema in the database, looking each up again by name, while another session
// dropped a schema or a table: src/db/pg-schema-introspector.ts confines it to the store's schema.
// These fail if the migrator's introspection reaches beyond its schema again.

describe('the migrator introspects its own PostgreSQL schema only', () => {
  let store: Awaited<ReturnType<typeof openStore>>;
  let other: string;
  before(async () => {
    store = await openStore('postgres', 'introspect');
    await migrateToLatest(store.handle);
    // Another store's tables, named as this one's: never mistaken for this store's.
    other = await createPgSchema('other_');
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`create table ${other}.kysely_migration (name text); create table ${other}.templates (id text); create table ${other}.only_there (x int)`);
    await c.end();
  });
  after(async () => {
    await store.close();
    await dropPgSchema(other);
  });

  it('lists the tables and columns of its schema, as information_schema has them, and nothing of another schema', async () => {
    const schema = store.handle.pgSchema!;
    const tables = await store.handle.db.introspection.getTables({ withInternalKyselyTables: true });
    assert.deepEqual(new Set(tables.map((t) => t.schema)), new Set([schema]));
    assert.ok(!tables.some((t) => t.name === 'only_there'));
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const { rows } = await c.query<{ table_name: string; column_name: string; is_nullable: string }>(`select table_name, column_name, is_nullable from information_schema.columns where table_schema = $1 order by table_name, ordinal_position`, [schema]);
      const expected = rows.map((r) => `${r.table_name}.${r.column_name}${r.is_nullable === 'YES' ? '?' : ''}`);
      const listed = tables.flatMap((t) => t.columns.map((col) => `${t.name}.${col.name}${col.isNullable ? '?' : ''}`));
      assert.deepEqual(listed.sort(), expected.sort());
      assert.ok(expected.includes('templates.created_at') && expected.includes('kysely_migration.name'));
    } finally {
      await c.end();
    }
    assert.ok(!(await store.handle.db.introspection.getTables()).some((t) => t.name.startsWith('kysely_')), 'Kysely tables only when asked for');
    assert.deepEqual(await store.handle.db.introspection.getSchemas(), [{ name: schema }]);
  });

  it('migrates fresh stores while another session keeps creating and dropping schemas and tables', async () => {
    const ddl = new pg.Client({ connectionString: PG_URL });
    await ddl.connect();
    let stop = false;
    let cycles = 0;
    const churn = (async () => {
      while (!stop) {
        const s = await createPgSchema('churn_');
        await ddl.query(Array.from({ length: 30 }, (_, i) => `create table ${s}.t${i} (a text, created_at text)`).join(';'));
        // Tables one by one, then the schema: each drop commits while the migrator may be reading.
        for (let i = 0; i < 30; i += 2) await ddl.query(`drop table ${s}.t${i}`);
        await ddl.query(`drop schema ${s} cascade`);
        cycles++;
      }
    })();
    const failures: string[] = [];
    try {
      // Before the fix, Kysely's introspection failed about twice a second under such churn.
      for (let i = 0; (i < 3 || cycles < 8) && i < 200; i++) {
        const fresh = await openStore('postgres', 'introspect');
        try {
          await migrateToLatest(fresh.handle);
          await fresh.handle.db.introspection.getTables({ withInternalKyselyTables: true });
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await fresh.close();
        }
      }
    } finally {
      stop = true;
      await churn;
      await ddl.end();
    }
    assert.ok(cycles >= 8, `the other session dropped ${cycles} schemas meanwhile`);
    assert.deepEqual(failures, []);
  });
});
