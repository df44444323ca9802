import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';

// Each stored document's page sizes (migration 0105, issue 43 item 4), by its file. Every query names
// the partition. Sizes are facts of the file: a second writer of the same file writes the same sizes,
// so a conflict keeps the row there.

/** The page sizes as stored (JSON `[[width, height], …]`), or undefined when not measured yet. */
export async function findDocumentPages(db: Db | Trx, p: Partition, pdfKey: string): Promise<string | undefined> {
  const row = await db.selectFrom('document_pages').select('page_sizes').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('pdf_key', '=', pdfKey).executeTakeFirst();
  return row?.page_sizes;
}

export async function putDocumentPages(db: Db | Trx, p: Partition, pdfKey: string, pageSizes: string, now: string): Promise<void> {
  await db
    .insertInto('document_pages')
    .values({ account_id: p.accountId, mode: p.mode, pdf_key: pdfKey, page_sizes: pageSizes, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'pdf_key']).doNothing())
    .execute();
}
