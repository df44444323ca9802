import type { Mode, Partition } from '../../lib/partition.js';
import { outcomeUpdate, type BoundUpdate } from '../outcome-update.js';
import type { Trx } from '../transact.js';
import type { DeliveryStatus } from '../tables.js';

type Delivery = { status: DeliveryStatus; error: string | null; at: string };

const delivery = outcomeUpdate('recipient-delivery', 'recipients', (db, a: { accountId: string; mode: Mode; id: string; status: DeliveryStatus; error: string | null; at: string }) =>
  db
    .updateTable('recipients')
    .set({ delivery_status: a.status, delivery_error: a.error, updated_at: a.at })
    .where('account_id', '=', a.accountId)
    .where('mode', '=', a.mode)
    .where('id', '=', a.id),
);

const deliveryArgs = (p: Partition, recipientId: string, d: Delivery) => ({ accountId: p.accountId, mode: p.mode, id: recipientId, status: d.status, error: d.error, at: d.at });

/** What the last delivery attempt to a recipient came to (the Recipient's delivery_status / delivery_error), as a job outcome's update. */
export function recipientDelivery(p: Partition, recipientId: string, d: Delivery): BoundUpdate {
  return delivery.with(deliveryArgs(p, recipientId, d));
}

/** The same, written now in `trx`. */
export async function setRecipientDelivery(trx: Trx, p: Partition, recipientId: string, d: Delivery): Promise<void> {
  await delivery.run(trx, deliveryArgs(p, recipientId, d));
}
