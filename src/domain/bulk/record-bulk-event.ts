import { insertEvent } from '../../db/repositories/events.js';
import type { Trx } from '../../db/handles.js';
import type { BulkSendRow } from '../../db/tables.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { noteEnqueued } from '../../outbox/wakeup.js';
import { bulkSendView } from './present-bulk-send.js';

/**
 * Appends `bulk_send.completed` in the caller's transaction (the one that settles the last row). An
 * event is indexed by its subject, which for this one is the bulk send: its id and created_at take the
 * form's places, and the snapshot is the BulkSend object itself, which the one event presenter
 * (`eventJson`) puts in `data.object` as it stands. It is published to webhooks like any event.
 */
export async function recordBulkSendCompleted(trx: Trx, p: Partition, bulk: BulkSendRow, at: string): Promise<void> {
  const snapshot = JSON.stringify(bulkSendView(bulk));
  await insertEvent(trx, p, { id: newId('event'), type: 'bulk_send.completed', form_id: bulk.id, form_created_at: bulk.created_at, form: snapshot, created_at: at });
  await noteEnqueued(trx);
}
