import { sql, type ColumnMetadata, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Dialect, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

/** Kysely's own bookkeeping tables, left out unless asked for (as Kysely's introspector does). */
const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];

interface ColumnRow {
  table: string;
  kind: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  comment: string | null;
  auto: boolean;
}

/**
 * PostgreSQL: the introspection Kysely's migrator runs (does the schema exist, do its bookkeeping
 * tables), confined to the store's own schema — `pgSchema`, else the session's current schema, where
 * an unqualified `kysely_migration` is made.
 *
 * Kysely's own introspector reads every column of every table of every schema in the database and,
 * for each, looks its table up again by name (`pg_get_serial_sequence('schema.table', column)`, which
 * takes no lock) and the schema's privileges by name. Another session's DROP SCHEMA or DROP TABLE that
 * commits meanwhile fails that read with "relation "t_….kysely_migration" does not exist", "column
 * "created_at" of relation "templates" does not exist" or "schema … does not exist" although this
 * store was untouched — the test files that failed only beside others, where several processes share
 * one database — and its cost grows with every schema in the database. Reading one schema by oid
 * joins alone meets neither.
 */
export class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | undefined,
  ) {}

  private get schemaName() {
    return this.schema === undefined ? sql`current_schema()` : sql`${this.schema}`;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schemaName}`.execute(this.db);
    return rows.map((r) => ({ name: r.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow & { schema: string }>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column, a.attnotnull as not_null,
        a.atthasdef as has_default, typ.typname as type, tns.nspname as type_schema,
        col_description(c.oid, a.attnum) as comment,
        (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)) as auto
      from pg_catalog.pg_namespace ns
      join pg_catalog.pg_class c on c.relnamespace = ns.oid
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where ns.nspname = ${this.schemaName} and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.includes(r.table)) continue;
      let t = tables.get(r.table);
      if (!t) tables.set(r.table, (t = { name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] }));
      t.columns.push({ name: r.column, dataType: r.type, dataTypeSchema: r.type_schema, isNullable: !r.not_null, hasDefaultValue: r.has_default, isAutoIncrementing: r.auto, ...(r.comment !== null ? { comment: r.comment } : {}) });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** `dialect` with its introspection confined to one schema (SchemaIntrospector). */
export function introspectingOneSchema(dialect: Dialect, schema: string | undefined): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => new SchemaIntrospector(db as Kysely<unknown>, schema),
  };
}
