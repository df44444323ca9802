import {
  addPurgeBlobs, deleteAnswersNaming, deleteFormRow, deleteFormRows, emptyDeliveryBodies, eventsOfForm, purgeInventory,
  rewriteEventSnapshot, templateUsesFile, writeTombstone,
} from '../../db/repositories/form-purge.js';
import { FINISHED_STATUSES } from '../../db/repositories/form-retention.js';
import { findForm, lockForm } from '../../db/repositories/forms.js';
import type { Trx } from '../../db/handles.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { formPurge } from '../../outbox/jobs/form-purge.job.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import type { Json } from '../json.js';
import { ACTIVE } from '../lifecycle/lifecycle-rules.js';
import { formJson, formState, removedFormFields, scrubbedSnapshot, type FormView } from './present-form.js';
import { purgeFormFiles } from './purge-files.js';
import { formFields } from './read-forms.js';
import { recordFormEvent } from './record-event.js';
import { pageImageKeyOf, renderCacheKeyOf } from './render-form-pdf.js';

export type DeleteDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'blobs' | 'renderCache' | 'pdfRenderer'>;

/** The statuses a form is finished in: it can be purged. */
const FINISHED: ReadonlySet<FormRow['status']> = new Set(FINISHED_STATUSES);

export interface DeleteOutcome {
  form: Json<FormView>;
  /** The form was deleted before this call: nothing new happened (the call is not charged again). */
  already: boolean;
}

/**
 * `DELETE /forms/{id}` (issue 40). A draft is removed (its row and the answers that named it; its
 * events stay, emptied, followed by `form.deleted`). A form in flight (`sent`, `viewed`, or every recipient signed and the seal being made)
 * answers 409 `form_not_deletable`: void it first. A finished form is purged in ONE transaction
 * (purgeFormRows) and its stored files are then deleted (purge-files.ts; the `form.purge` job
 * enqueued in that transaction finishes it if this call cannot). Deleting again answers the tombstone.
 * When the file store cannot be reached the call answers 503 `storage_unavailable` after the rows
 * are purged: the tombstone says the files are still `deleting`, and the job retries.
 */
export async function deleteForm(deps: DeleteDeps, p: Partition, formId: string): Promise<DeleteOutcome> {
  const before = await findForm(deps.db, p, formId);
  if (!before) throw notFound('form', formId);
  if (before.status === 'deleted') {
    if (before.purge_state !== 'done') await purgeFormFiles(deps, p, formId);
    return { form: await tombstoneOf(deps, p, formId), already: true };
  }
  // Read before the unit (I/O is not allowed inside it): where the filled document is cached.
  const renderKey = renderCacheKeyOf(deps, p, before, await formFields(deps, p, before));
  const now = isoNow(deps.clock);
  const result = await deps.transact(async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    if (form.status === 'deleted') return { kind: 'already' as const };
    const refusal = purgeRefusal(form);
    if (refusal) throw refusal;
    if (form.status === 'draft') {
      // The draft's row goes, but its events stay, emptied of its data, and `form.deleted` follows
      // them: a poller's `ending_before` cursor may name one of them, and a receiver that heard
      // `form.created` hears the deletion. Events of a form without a row render with no fields
      // (removedFormFields).
      for (const e of await eventsOfForm(trx, p, form.id)) await rewriteEventSnapshot(trx, p, e.id, scrubbedSnapshot(e.form));
      await emptyDeliveryBodies(trx, p, form.id);
      await deleteAnswersNaming(trx, p, form.id);
      await deleteFormRow(trx, p, form.id);
      await addPurgeBlobs(trx, p, form.id, [renderKey, pageImageKeyOf(renderKey), ...(await ownFile(trx, p, form))], now);
      await recordFormEvent(trx, p, 'form.deleted', formState(removedDraft(form, now), []), now);
      await enqueue(trx, p, formPurge, { form_id: form.id }, { now });
      return { kind: 'draft' as const, form };
    }
    return { kind: 'purged' as const, form: await purgeFinishedForm(trx, p, form, renderKey, now) };
  });
  await purgeFormFiles(deps, p, formId);
  if (result.kind === 'draft') {
    // No tombstone is kept of a draft: nothing was sent, signed or sealed. The answer shows what it was.
    return { form: formJson(formState(removedDraft(result.form, now), []), removedFormFields, deps.links), already: false };
  }
  return { form: await tombstoneOf(deps, p, formId), already: result.kind === 'already' };
}

/** What a removed draft was, without its data: the answer to DELETE and its `form.deleted` event. */
function removedDraft(form: FormRow, now: string): FormRow {
  return { ...form, status: 'deleted', deleted_at: now, values: '{}', metadata: '{}', name: null, fields: '[]', purge_state: 'done', tombstone: JSON.stringify({ recipients: 0, signatures: 0, events: 0 }) };
}

/**
 * The one rule of what may be purged now — DELETE, the retention job and a data subject's erasure ask
 * it under the form's lock; undefined when it may be (a draft is removed rather than purged):
 * - on legal hold: never (409 `form_on_hold`);
 * - every recipient signed and the seal being made or retried (`sealing: pending`): not yet — the seal
 *   would complete a form being emptied (409 `form_not_deletable`; delete it once it is signed);
 * - every recipient signed and the seal failed for good (`sealing: failed`): it may be purged. Nothing
 *   is out for signing any more and it cannot be voided (a signed form is not withdrawn), so without
 *   this it could be neither kept sealed nor deleted; a reseal (POST /forms/{id}/reseal) is the other way;
 * - `sent` or `viewed` otherwise: still out for signing, void it first (409 `form_not_deletable`);
 * - finished (`signed`, `declined`, `voided`, `expired`): it may be purged.
 */
export function purgeRefusal(form: FormRow): AppError | undefined {
  if (form.hold_at !== null) {
    return new AppError('form_on_hold', `This form is on legal hold since ${form.hold_at} (${form.hold_reason ?? 'no reason given'}); release the hold (DELETE /forms/${form.id}/hold) before deleting it.`);
  }
  if (form.sealing_status === 'pending' && form.status !== 'signed') {
    return new AppError('form_not_deletable', `Every recipient has signed this form and its seal is being made; delete it once it is signed (GET /forms/${form.id} shows its sealing).`);
  }
  if (ACTIVE.has(form.status) && form.sealing_status !== 'failed') {
    return new AppError('form_not_deletable', `This form is ${form.status} and still out for signing; void it first (POST /forms/${form.id}/void), then delete it.`);
  }
  if (form.status === 'draft' || ACTIVE.has(form.status) || FINISHED.has(form.status)) return undefined;
  return new AppError('form_not_deletable', `A ${form.status} form cannot be deleted.`);
}

/**
 * The purge of a finished form, in the caller's transaction with its row locked (DELETE, the retention
 * job): the rows emptied, the tombstone written, `form.deleted` recorded, the `form.purge` job enqueued
 * for its files. `renderKey`: where its filled document is cached (renderCacheKeyOf, read before the unit).
 */
export async function purgeFinishedForm(trx: Trx, p: Partition, form: FormRow, renderKey: string, now: string): Promise<FormRow> {
  const tombstone = await purgeFormRows(trx, p, form, [renderKey, pageImageKeyOf(renderKey), ...(await ownFile(trx, p, form))], now);
  await recordFormEvent(trx, p, 'form.deleted', formState(tombstone, []), now);
  await enqueue(trx, p, formPurge, { form_id: form.id }, { now });
  return tombstone;
}

/**
 * Empties every row of the form that holds personal data (PURGE_PLAN in db/repositories/form-purge.ts)
 * and makes its row the tombstone; lists its stored files in `purge_blobs`. The caller's transaction.
 */
export async function purgeFormRows(trx: Trx, p: Partition, form: FormRow, files: readonly string[], now: string): Promise<FormRow> {
  const inventory = await purgeInventory(trx, p, form.id);
  for (const e of await eventsOfForm(trx, p, form.id)) await rewriteEventSnapshot(trx, p, e.id, scrubbedSnapshot(e.form));
  await emptyDeliveryBodies(trx, p, form.id);
  await deleteAnswersNaming(trx, p, form.id);
  await deleteFormRows(trx, p, form.id);
  const counts = JSON.stringify({ ...inventory.counts, events: inventory.counts.events + 1 });
  await writeTombstone(trx, p, form.id, { at: now, sealedSha256: inventory.sealedSha256, tombstone: counts });
  await addPurgeBlobs(trx, p, form.id, [...files, ...inventory.blobKeys], now);
  return {
    ...form, status: 'deleted', deleted_at: now, updated_at: now, purge_state: 'blobs', sealed_sha256: inventory.sealedSha256, tombstone: counts,
    values: '{}', metadata: '{}', name: null, fields: '[]', void_reason: null, sealing_error: null,
  };
}

/** A generated form's own PDF (unless a template saved from it keeps the same file). */
async function ownFile(trx: Trx, p: Partition, form: FormRow): Promise<string[]> {
  if (form.template_id !== null) return [];
  return (await templateUsesFile(trx, p, form.pdf_key)) ? [] : [form.pdf_key];
}

async function tombstoneOf(deps: DeleteDeps, p: Partition, formId: string): Promise<Json<FormView>> {
  const row = await findForm(deps.db, p, formId);
  if (!row) throw notFound('form', formId);
  return formJson(formState(row, []), removedFormFields, deps.links);
}
