import { sql, type Kysely } from 'kysely';

/**
 * Issue 42 items 2 and 3. `recipients.role`: `signer` (the default, every recipient before this),
 * `approver` (approves or declines, no fields), `cc` (told, sent the completed copy, never acts) or
 * `viewer` (must open the document). `recipients.message` and `recipients.subject`: the sender's own
 * words for this recipient's invitation and signing page (the send's, or the recipient's override),
 * kept so an invitation written later (sequential order) says what the send said. `approved_at`: when
 * an approver approved. Personal data for a form's purge: `message`, `subject` (the row is purged whole).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recipients').addColumn('role', 'text', (c) => c.notNull().defaultTo(sql`'signer'`)).execute();
  await db.schema.alterTable('recipients').addColumn('message', 'text').execute();
  await db.schema.alterTable('recipients').addColumn('subject', 'text').execute();
  await db.schema.alterTable('recipients').addColumn('approved_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['approved_at', 'subject', 'message', 'role']) await db.schema.alterTable('recipients').dropColumn(column).execute();
}
