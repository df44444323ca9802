import type { Db } from '../../db/database.js';
import { insertEvent } from '../../db/repositories/events.js';
import type { FormRow } from '../../db/tables.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { formSnapshot, type EventView } from '../forms/present-form.js';

export type EventType = EventView['type'];

/**
 * Appends an event to the audit log in the caller's transaction, so a state change and its event
 * commit or fail together. The event row is also its publication entry (the transactional-outbox
 * pattern with the events as the outbox): it is written unpublished, and the webhook publisher finds
 * it through the partial index on pending events. A separate job per event would be the same fact
 * written twice. The event keeps a snapshot of the form as it is now; the body every consumer sees is
 * rendered from it.
 */
export async function recordFormEvent(trx: Db, p: Partition, type: EventType, form: FormRow, at: string): Promise<string> {
  const id = newId('event');
  await insertEvent(trx, p, { id, type, form_id: form.id, form_created_at: form.created_at, form: formSnapshot(form), created_at: at });
  return id;
}
