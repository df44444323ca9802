import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { SigningDraftRow } from '../tables.js';

// A recipient's draft on the signing page (migration 0065, issue 43 item 5). Every query names the
// partition; a draft is keyed by its recipient.

export async function findSigningDraft(db: Db | Trx, p: Partition, recipientId: string): Promise<SigningDraftRow | undefined> {
  return db.selectFrom('signing_drafts').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('recipient_id', '=', recipientId).executeTakeFirst();
}

/** Writes the draft whole (the values replace the previous ones) with its save count and link time. */
export async function putSigningDraft(
  trx: Trx,
  p: Partition,
  d: Pick<SigningDraftRow, 'recipient_id' | 'form_id' | 'values' | 'window_start' | 'window_count' | 'link_sent_at' | 'updated_at'>,
): Promise<void> {
  await trx
    .insertInto('signing_drafts')
    .values({ ...d, account_id: p.accountId, mode: p.mode, created_at: d.updated_at })
    .onConflict((oc) =>
      oc.column('recipient_id').doUpdateSet({ values: d.values, window_start: d.window_start, window_count: d.window_count, link_sent_at: d.link_sent_at, updated_at: d.updated_at }),
    )
    .execute();
}

/** The recipient's draft has no use left (they signed): deleted in that unit. */
export async function deleteRecipientDraft(trx: Trx, p: Partition, recipientId: string): Promise<void> {
  await trx.deleteFrom('signing_drafts').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('recipient_id', '=', recipientId).execute();
}

/** The form is over (declined, voided, expired): every recipient's draft deleted in that unit. */
export async function deleteFormDrafts(trx: Trx, p: Partition, formId: string): Promise<void> {
  await trx.deleteFrom('signing_drafts').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
}
