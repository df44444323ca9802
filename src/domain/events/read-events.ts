import { findPartitionEvent, listPartitionEvents, type EventPageQuery, type EventPosition } from '../../db/repositories/events.js';
import { findForm, findFormsIn } from '../../db/repositories/forms.js';
import type { EventRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { eventJson, removedFormFields, type EventView } from '../forms/present-form.js';
import { removedFormOfEvents } from '../../db/repositories/form-purge.js';
import { formFields } from '../forms/read-forms.js';
import { json, type Json } from '../json.js';
import { cursorRefused, listJson, type ListInput, type ListView } from '../pagination.js';
import type { FieldSet } from '../templates/field-set.js';

/**
 * How long the events API shows an event (as Stripe's does). The rows stay: they are the forms' audit
 * trails (GET /forms/{id}/events) and the webhook publisher's outbox; only this API stops listing them.
 */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

type ReadDeps = Pick<DomainDeps, 'db' | 'templateCache' | 'links' | 'clock'>;

export interface EventListInput extends ListInput {
  ending_before?: string | undefined;
  type?: string | undefined;
  form_id?: string | undefined;
  'created[gte]'?: string | undefined;
  'created[lt]'?: string | undefined;
}

const sinceOf = (deps: Pick<DomainDeps, 'clock'>): string => new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();

/** Stored times are UTC with milliseconds; an RFC 3339 bound in any offset is compared in that form. */
const instant = (rfc3339: string): string => new Date(rfc3339).toISOString();

/**
 * The partition's events of the last 30 days, newest first, filtered; each rendered by the one form
 * presenter from its snapshot, so it is byte for byte the body its webhook deliveries carry.
 */
export async function listEvents(deps: ReadDeps, p: Partition, input: EventListInput): Promise<Json<ListView<EventView>>> {
  const retained = sinceOf(deps);
  const gte = input['created[gte]'] === undefined ? retained : instant(input['created[gte]']);
  const q = await eventCursor(deps, p, input, retained);
  let form: { id: string; created_at: string } | undefined;
  if (input.form_id !== undefined) {
    const row = await findForm(deps.db, p, input.form_id);
    // A removed draft has no row but keeps its events; a form this partition never had has no events
    // here (and another partition's stays unseen).
    form = row ? { id: row.id, created_at: row.created_at } : await removedFormOfEvents(deps.db, p, input.form_id);
    if (!form) return listJson([], false);
  }
  const page = await listPartitionEvents(deps.db, p, {
    type: input.type,
    form,
    since: gte > retained ? gte : retained,
    before: input['created[lt]'] === undefined ? undefined : instant(input['created[lt]']),
  }, q);
  const fields = await fieldsOfForms(deps, p, page.rows);
  return listJson(page.rows.map((e) => render(e, fields, deps)), page.hasMore);
}

/**
 * `starting_after` pages to older events, `ending_before` to newer ones (the way to poll: see the
 * operation's description). Either names an event of this partition's list, refused alike whether it
 * exists elsewhere or not, so the answer reveals nothing about other partitions.
 */
async function eventCursor(deps: ReadDeps, p: Partition, input: EventListInput, retained: string): Promise<EventPageQuery> {
  const limit = input.limit ?? 20;
  if (input.starting_after && input.ending_before) {
    throw new AppError('parameter_invalid', 'Give starting_after or ending_before, not both.', 'ending_before');
  }
  const at = async (param: 'starting_after' | 'ending_before', id: string): Promise<EventPosition> => {
    const e = await findPartitionEvent(deps.db, p, id, retained);
    // Every committed event has its number (an unnumbered one is another transaction's, not yet seen).
    if (!e || e.seq === null) throw cursorRefused(param, 'event', id);
    return e.seq;
  };
  if (input.starting_after) return { limit, olderThan: await at('starting_after', input.starting_after) };
  if (input.ending_before) return { limit, newerThan: await at('ending_before', input.ending_before) };
  return { limit };
}

export async function getEvent(deps: ReadDeps, p: Partition, id: string): Promise<Json<EventView>> {
  const e = await findPartitionEvent(deps.db, p, id, sinceOf(deps));
  if (!e) throw notFound('event', id);
  const fields = await fieldsOfForms(deps, p, [e]);
  return json(render(e, fields, deps));
}

function render(e: EventRow, fields: Map<string, FieldSet>, deps: ReadDeps): string {
  // A removed draft's events stay (emptied) without its row (issue 40): they render with no fields.
  return eventJson(e, fields.get(e.form_id) ?? removedFormFields, deps.links).json;
}

/** The field sets of the events' forms: one read of the forms, each field set from the template cache. */
async function fieldsOfForms(deps: ReadDeps, p: Partition, events: readonly EventRow[]): Promise<Map<string, FieldSet>> {
  const out = new Map<string, FieldSet>();
  const forms = await findFormsIn(deps.db, p, [...new Set(events.map((e) => e.form_id))]);
  for (const form of forms) out.set(form.id, await formFields(deps, p, form));
  return out;
}
