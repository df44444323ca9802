import { sql, type Kysely } from 'kysely';

/**
 * A form's sealing state (issue 25), shown as the Form's `sealing`: `pending` from the last signature
 * until the seal is stored, `sealed` then, `failed` once the seal job's last attempt failed (every
 * TSA down, say), with the attempts made, the last error and when the next attempt is due. Null
 * before the last signature. Forms already signed were sealed: they are marked so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('forms').addColumn('sealing_status', 'text').execute();
  await db.schema.alterTable('forms').addColumn('sealing_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('forms').addColumn('sealing_error', 'text').execute();
  await db.schema.alterTable('forms').addColumn('sealing_next_at', 'text').execute();
  await sql`update forms set sealing_status = 'sealed', sealing_attempts = 1 where status = 'signed'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['sealing_next_at', 'sealing_error', 'sealing_attempts', 'sealing_status']) {
    await db.schema.alterTable('forms').dropColumn(column).execute();
  }
}
