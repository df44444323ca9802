import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { SealedFileRow } from '../tables.js';

export async function insertSealedFile(trx: Trx, p: Partition, row: Omit<SealedFileRow, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('sealed_files').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

export async function findSealedFile(db: Db, p: Partition, formId: string): Promise<SealedFileRow | undefined> {
  return db.selectFrom('sealed_files').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).executeTakeFirst();
}
