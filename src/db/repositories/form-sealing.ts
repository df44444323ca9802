import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { FormRow, SealingStatus } from '../tables.js';

/** A form's sealing state (0015), as the Form's `sealing` shows it. */
export interface SealingPatch {
  sealing_status: SealingStatus;
  sealing_attempts: number;
  sealing_error: string | null;
  sealing_next_at: string | null;
}

/** Sets the sealing state, and with it the status a seal gives the form when it records one (one statement). */
export async function setFormSealing(trx: Trx, p: Partition, formId: string, patch: SealingPatch & Partial<Pick<FormRow, 'status' | 'completed_at' | 'updated_at'>>): Promise<void> {
  await trx.updateTable('forms').set(patch).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', formId).execute();
}

/**
 * Records a failed seal attempt, unless the form was sealed meanwhile (a late failure of an attempt
 * another worker already finished must not turn `sealed` back).
 */
export async function recordSealAttemptFailed(trx: Trx, p: Partition, formId: string, patch: SealingPatch): Promise<void> {
  await trx
    .updateTable('forms')
    .set(patch)
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', formId)
    .where((eb) => eb.or([eb('sealing_status', 'is', null), eb('sealing_status', '<>', 'sealed')]))
    .execute();
}

/**
 * The partition of a form, by its id alone: the operator's `formsign forms reseal ID` names a form
 * without an account (a lookup that establishes the partition, like an API key's). Ids are unique.
 */
export async function findFormPartition(db: Db, formId: string): Promise<Partition | undefined> {
  const row = await db.selectFrom('forms').select(['account_id', 'mode']).where('id', '=', formId).executeTakeFirst();
  return row ? { accountId: row.account_id, mode: row.mode } : undefined;
}
