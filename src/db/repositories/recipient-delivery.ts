import type { Partition } from '../../lib/partition.js';
import type { Trx } from '../handles.js';
import type { DeliveryStatus } from '../tables.js';

/** What the last delivery attempt to a recipient came to (the Recipient's delivery_status / delivery_error). */
export async function setRecipientDelivery(trx: Trx, p: Partition, recipientId: string, d: { status: DeliveryStatus; error: string | null; at: string }): Promise<void> {
  await trx
    .updateTable('recipients')
    .set({ delivery_status: d.status, delivery_error: d.error, updated_at: d.at })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', recipientId)
    .execute();
}
