import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';

// Every harness used to run all the migrations on its fresh store: ~0.25 s (SQLite, fsyncs included)
// and ~2 s on a loaded machine (PostgreSQL, where every migrator of the database also waits its turn on
// Kysely's one advisory lock), for each of several hundred harnesses a run. Here the migrations run
// once per process, into a template, and each harness's store starts as a copy of it (in a run of
// scripts/run-tests.ts, which removes the templates at its end with the run's schemas and temp files;
// outside one, each harness migrates as before): SQLite copies
// the file; PostgreSQL replays the template schema's tables, constraints, indexes and rows (the
// migrations' bookkeeping included) into the new schema in one round trip. The app still runs its
// migrator at start, which then finds nothing to do. test/db/migrated-store.test.ts checks that a copy
// equals a migrated store, catalog and rows.

/** SQLite: a migrated, checkpointed database file, made once per process. */
let sqliteTemplate: Promise<string> | undefined;

function migratedSqliteFile(runId: string): Promise<string> {
  return (sqliteTemplate ??= (async () => {
    // Named for the run: scripts/run-tests.ts removes the run's temp files at its end.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-test-${runId}-template-${process.pid}-`));
    const handle = openDatabase({ dataDir: dir });
    await migrateToLatest(handle);
    // Closing the last connection checkpoints the WAL into the file and deletes it.
    await handle.close();
    return path.join(dir, 'formsign.sqlite');
  })());
}

/** Puts a migrated SQLite store into `dataDir` (where openDatabase looks for it). */
export async function copyMigratedSqlite(runId: string, dataDir: string): Promise<void> {
  fs.copyFileSync(await migratedSqliteFile(runId), path.join(dataDir, 'formsign.sqlite'));
}

/** PostgreSQL: the SQL that makes a migrated schema's contents in the session's search_path. */
let pgTemplate: Promise<string> | undefined;

/** Objects the copy does not make; a migration that adds one fails the copy loudly rather than silently. */
const UNSUPPORTED = `
  select 'sequence, view or other relation ' || c.relname as what from pg_class c where c.relnamespace = $1::regnamespace and c.relkind not in ('r', 'i')
  union all select 'identity or generated column ' || a.attname from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = $1::regnamespace and (a.attidentity <> '' or a.attgenerated <> '')
  union all select 'function ' || p.proname from pg_proc p where p.pronamespace = $1::regnamespace
  union all select 'type ' || t.typname from pg_type t where t.typnamespace = $1::regnamespace and t.typtype not in ('c', 'b') and t.typrelid = 0
  union all select 'trigger ' || t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace and not t.tgisinternal
  union all select 'comment on ' || c.relname from pg_description d join pg_class c on c.oid = d.objoid where c.relnamespace = $1::regnamespace`;

async function schemaDdl(c: pg.Client, schema: string): Promise<string> {
  const unsupported = (await c.query<{ what: string }>(UNSUPPORTED, [schema])).rows;
  if (unsupported.length > 0) throw new Error(`test/shared/migrated-store.ts cannot copy ${unsupported.map((u) => u.what).join(', ')}: teach it, or migrate each store`);
  // Names print unqualified with the template first in the search_path.
  await c.query(`set search_path = ${schema}`);
  const columns = await c.query<{ table: string; column: string; type: string; collation: string | null; notnull: boolean; def: string | null }>(`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
      case when a.attcollation <> t.typcollation then (select quote_ident(collname) from pg_collation where oid = a.attcollation) end as collation,
      a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as def
    from pg_class c join pg_attribute a on a.attrelid = c.oid join pg_type t on t.oid = a.atttypid
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where c.relnamespace = $1::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
    order by c.oid, a.attnum`, [schema]);
  const tables = new Map<string, string[]>();
  for (const r of columns.rows) {
    const cols = tables.get(r.table) ?? [];
    cols.push(`${pg.escapeIdentifier(r.column)} ${r.type}${r.collation ? ` collate ${r.collation}` : ''}${r.def !== null ? ` default ${r.def}` : ''}${r.notnull ? ' not null' : ''}`);
    tables.set(r.table, cols);
  }
  // Key constraints first (foreign keys need them), then checks, then foreign keys.
  const constraints = await c.query<{ table: string; name: string; def: string }>(`
    select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as def
    from pg_constraint k join pg_class c on c.oid = k.conrelid
    where c.relnamespace = $1::regnamespace
    order by case k.contype when 'p' then 0 when 'u' then 1 when 'x' then 2 when 'c' then 3 else 4 end, c.oid, k.oid`, [schema]);
  const indexes = await c.query<{ def: string }>(`
    select pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relnamespace = $1::regnamespace
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid and k.contype in ('p', 'u', 'x'))
    order by i.indexrelid`, [schema]);
  const statements: string[] = [];
  for (const [table, cols] of tables) statements.push(`create table ${pg.escapeIdentifier(table)} (${cols.join(', ')})`);
  for (const k of constraints.rows) statements.push(`alter table ${pg.escapeIdentifier(k.table)} add constraint ${pg.escapeIdentifier(k.name)} ${k.def}`);
  // pg_get_indexdef names the table with its schema whatever the search_path.
  for (const i of indexes.rows) statements.push(i.def.replace(` ON ${schema}.`, ' ON '));
  // Rows the migrations wrote (their own bookkeeping at least), copied from the template.
  for (const table of tables.keys()) {
    const { rows } = await c.query<{ any: boolean }>(`select exists (select 1 from ${pg.escapeIdentifier(table)}) as any`);
    if (rows[0]!.any) statements.push(`insert into ${pg.escapeIdentifier(table)} select * from ${schema}.${pg.escapeIdentifier(table)}`);
  }
  return statements.join(';\n');
}

function migratedPgDdl(url: string, newSchema: (tag: string) => Promise<string>): Promise<string> {
  return (pgTemplate ??= (async () => {
    // Kept until the run's schemas are dropped: the copies read their rows from it.
    const schema = await newSchema('template_');
    const handle = openDatabase({ databaseUrl: url, dataDir: os.tmpdir(), pgSchema: schema });
    try {
      await migrateToLatest(handle);
    } finally {
      await handle.close();
    }
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await schemaDdl(c, schema);
    } finally {
      await c.end();
    }
  })());
}

/** Fills the new, empty `schema` with a copy of a migrated one, in one round trip. */
export async function copyMigratedPgSchema(url: string, schema: string, newSchema: (tag: string) => Promise<string>): Promise<void> {
  const ddl = await migratedPgDdl(url, newSchema);
  const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    // One simple query: one implicit transaction, all or nothing.
    await c.query(ddl);
  } finally {
    await c.end();
  }
}
