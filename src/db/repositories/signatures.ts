import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { SignatureRow } from '../tables.js';

export function insertSignature(trx: Trx, p: Partition, row: Omit<SignatureRow, 'account_id' | 'mode'>): Promise<unknown> {
  return trx.insertInto('signatures').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

/** A form's signature and initials images, by field name. */
export function listSignaturesOfForm(db: Db, p: Partition, formId: string): Promise<SignatureRow[]> {
  return db
    .selectFrom('signatures')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('form_id', '=', formId)
    .orderBy('field_name')
    .execute();
}
