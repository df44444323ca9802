import type { Db } from '../../db/database.js';
import { insertEvent } from '../../db/repositories/events.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import type { EventView, FormView } from '../forms/present-form.js';

export type EventType = EventView['type'];

/**
 * Appends an event to the audit log and queues its publication in the caller's transaction, so the
 * state change, its audit entry and its webhook deliveries commit or fail together.
 */
export async function recordFormEvent(trx: Db, p: Partition, type: EventType, form: FormView, at: string): Promise<EventView> {
  const event: EventView = { object: 'event', id: newId('event'), type, created_at: at, mode: p.mode, data: { object: form } };
  await insertEvent(trx, p, { id: event.id, type, form_id: form.id, data: JSON.stringify(event), created_at: at });
  await enqueue(trx, p, { kind: 'event.publish', payload: { event_id: event.id }, runAt: at });
  return event;
}
