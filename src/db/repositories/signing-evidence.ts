import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { SigningEvidenceRow } from '../tables.js';

/** Records the consent agreed to and the signer's UTC offset, in the transaction that marks them signed. */
export async function insertSigningEvidence(trx: Trx, p: Partition, row: Omit<SigningEvidenceRow, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('signing_evidence').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

/** A form's signing evidence, one row per signed recipient (none for signatures made before migration 0016). */
export function listSigningEvidenceOfForm(db: Db, p: Partition, formId: string): Promise<SigningEvidenceRow[]> {
  return db.selectFrom('signing_evidence').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
}
