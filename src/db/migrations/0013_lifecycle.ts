import { sql, type Kysely } from 'kysely';

/**
 * The life of a form after it is sent (issue #23): signing order, reminders, decline and void.
 * - `forms.signing_order` (`parallel` | `sequential`; null until the first send fixes it), the
 *   reminder schedule the first send asked for (`reminder_every_days`, `reminder_max`; null = none),
 *   and the void (`voided_at`, `void_reason`). Statuses gain `declined` and `voided` (text, unchecked
 *   like the others).
 * - `recipients`: `declined_at`, `decline_reason`, and `last_reminded_at` (the manual reminder's
 *   once-an-hour rule reads it). Status gains `waiting` (sequential, not messaged yet) and `declined`.
 *   A waiting recipient's `sent_at` is when it was added; it is set again when its turn messages it.
 * - `reminders`: one row per reminder sent, the audit's record of it. A scheduled reminder carries its
 *   number (`seq`, 1…max): unique per recipient, so one promise is kept once however many workers run
 *   its job. Manual reminders have no number (NULLs never collide, on either dialect).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('forms').addColumn('signing_order', 'text').execute();
  await db.schema.alterTable('forms').addColumn('reminder_every_days', 'integer').execute();
  await db.schema.alterTable('forms').addColumn('reminder_max', 'integer').execute();
  await db.schema.alterTable('forms').addColumn('voided_at', 'text').execute();
  await db.schema.alterTable('forms').addColumn('void_reason', 'text').execute();

  await db.schema.alterTable('recipients').addColumn('declined_at', 'text').execute();
  await db.schema.alterTable('recipients').addColumn('decline_reason', 'text').execute();
  await db.schema.alterTable('recipients').addColumn('last_reminded_at', 'text').execute();

  await db.schema
    .createTable('reminders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reminders_form_idx').on('reminders').columns(['account_id', 'mode', 'form_id', 'created_at']).execute();
  await sql`create unique index reminders_promise_idx on reminders (recipient_id, seq) where seq is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reminders').execute();
  for (const column of ['declined_at', 'decline_reason', 'last_reminded_at']) await db.schema.alterTable('recipients').dropColumn(column).execute();
  for (const column of ['signing_order', 'reminder_every_days', 'reminder_max', 'voided_at', 'void_reason']) await db.schema.alterTable('forms').dropColumn(column).execute();
}
