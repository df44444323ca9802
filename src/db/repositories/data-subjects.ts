import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { DataSubjectRequestsTable } from '../tables.js';

/**
 * The forms of the partition where `key` (a lower-cased e-mail or an E.164 number) is a recipient's
 * address, or was one before the recipient was replaced (issue 38: `retired_links` keeps who they were).
 */
export async function formIdsOfAddress(db: Db, p: Partition, key: string): Promise<string[]> {
  const rows = await db.selectFrom('recipients').select('form_id').distinct()
    .where('account_id', '=', p.accountId).where('mode', '=', p.mode)
    .where((eb) => eb.or([eb('address_key', '=', key), eb('phone', '=', key)]))
    .orderBy('form_id').execute();
  const replaced = await db.selectFrom('retired_links').select('form_id').distinct()
    .where('account_id', '=', p.accountId).where('mode', '=', p.mode)
    .where((eb) => eb.or([eb(eb.fn('lower', ['email']), '=', key), eb('phone', '=', key)]))
    .execute();
  const ids = rows.map((r) => r.form_id);
  return [...ids, ...replaced.map((r) => r.form_id).filter((id) => !ids.includes(id))];
}

export async function recordDataSubjectRequest(trx: Trx, p: Partition, row: Omit<DataSubjectRequestsTable, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('data_subject_requests').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

export function listDataSubjectRequests(db: Db, p: Partition): Promise<DataSubjectRequestsTable[]> {
  return db.selectFrom('data_subject_requests').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}
