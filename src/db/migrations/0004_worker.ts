import { sql, type Kysely } from 'kysely';

/**
 * The job worker:
 * - `outbox.locked_by`: which worker process holds (or last held) a job, for the operator and for
 *   telling workers apart in tests; the lease itself is `locked_until`, fenced by `attempts`.
 * - a partial index on the forms an expiry sweep looks at (sent or viewed, by expires_at), so the
 *   sweep reads only forms that can expire, however many signed or draft forms there are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('locked_by', 'text').execute();
  await sql`create index forms_expiring_idx on forms (expires_at) where status in ('sent', 'viewed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('forms_expiring_idx').execute();
  await db.schema.alterTable('outbox').dropColumn('locked_by').execute();
}
