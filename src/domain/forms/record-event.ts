import { insertEvent } from '../../db/repositories/events.js';
import type { Trx } from '../../db/handles.js';
import { newId } from '../../lib/ids.js';
import { noteEnqueued } from '../../outbox/wakeup.js';
import type { Partition } from '../../lib/partition.js';
import { snapshotJson, type EventDetail, type EventView, type FormState } from './present-form.js';

export type EventType = EventView['type'];

/**
 * Appends an event to the audit log in the caller's transaction, so a state change and its event
 * commit or fail together. The event row is also its publication entry (the transactional-outbox
 * pattern with the events as the outbox): it is written unpublished, and the webhook publisher finds
 * it through the partial index on pending events. A separate job per event would be the same fact
 * written twice. The event keeps the form's state as it is now (`snapshotJson`); the body every
 * consumer sees is rendered from it by the one form presenter.
 */
export async function recordFormEvent(trx: Trx, p: Partition, type: EventType, form: FormState, at: string, detail?: EventDetail): Promise<string> {
  const id = newId('event');
  // The detail rides in the stored snapshot, under a key the form presenter does not read (eventJson does).
  const snapshot = detail ? `${snapshotJson(form).slice(0, -1)},"event_detail":${JSON.stringify(detail)}}` : snapshotJson(form);
  await insertEvent(trx, p, { id, type, form_id: form.head.id, form_created_at: form.head.created_at, form: snapshot, created_at: at });
  // Wakes the worker once this commits (PostgreSQL: NOTIFY), so the publisher fans it out at once.
  await noteEnqueued(trx);
  return id;
}
