import { sql, type Kysely } from 'kysely';

/**
 * The claim's index: jobs waiting to run (pending or failed) in run_at order. With (status, run_at) a
 * claim of `status in ('pending', 'failed')` read every due row of both statuses and sorted them before
 * taking the first few (PostgreSQL: a bitmap scan and a sort, growing with the backlog); this index
 * hands the earliest ones over in order, so a claim reads only the rows it takes.
 *
 * A plain (not concurrent) build holds off writes to the outbox while it runs: done jobs are swept
 * after 7 days (outbox.sweep), so the table stays small and the build short.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index outbox_waiting_idx on outbox (run_at) where status in ('pending', 'failed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_waiting_idx').execute();
}
