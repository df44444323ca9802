import type { Db } from '../../db/database.js';
import { insertEvent } from '../../db/repositories/events.js';
import type { FormRow } from '../../db/tables.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { formSnapshot, type EventView } from '../forms/present-form.js';

export type EventType = EventView['type'];

/** What the `event.publish` job carries: enough to find the event through its form. */
export interface EventRef {
  form_id: string;
  event_id: string;
}

/**
 * Appends an event to the audit log and queues its publication in the caller's transaction, so the
 * state change, its audit entry and its webhook deliveries commit or fail together. The event keeps a
 * snapshot of the form as it is now; the body every consumer sees is rendered from it.
 */
export async function recordFormEvent(trx: Db, p: Partition, type: EventType, form: FormRow, at: string): Promise<string> {
  const id = newId('event');
  await insertEvent(trx, p, { id, type, form_id: form.id, form_created_at: form.created_at, form: formSnapshot(form), created_at: at });
  const ref: EventRef = { form_id: form.id, event_id: id };
  await enqueue(trx, p, { kind: 'event.publish', payload: ref, runAt: at });
  return id;
}
