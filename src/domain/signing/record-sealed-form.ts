import { setFormSealing } from '../../db/repositories/form-sealing.js';
import { lockForm } from '../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { isComplete } from '../sending/recipient-roles.js';
import { insertSealedFile } from '../../db/repositories/sealed-files.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { recordFormEvent } from '../forms/record-event.js';
import { formState } from '../forms/present-form.js';
import { enqueueCompletedMessages } from '../sending/completed-copy.js';
import type { AccountFacts } from '../sending/sender-notice.js';

/**
 * Where a sealed file is kept: named by its content, so a second seal of the same form (a retried job
 * whose first run went on past its timeout, a job made obsolete by a late recipient) can never
 * overwrite the file `sealed_files` already points at.
 */
export function sealedFileKey(p: Partition, formId: string, sha256: string): string {
  return `${p.accountId}/${p.mode}/signed/${formId}-${sha256.slice(0, 32)}.pdf`;
}

/**
 * The last step of sealing: the signed PDF is stored, then ONE transaction records the file, makes the
 * form `signed` (with `completed_at`) and writes `form.signed` — so a signed form always has its file and
 * its event, and neither exists without the other. Inside that transaction (the form row locked) the
 * form must still be `sent` or `viewed` and its recipients must be exactly the ones sealed, all signed:
 * a recipient added while the document was being sealed makes this seal obsolete (their signature
 * enqueues another), and an expired or already signed form is left as it is. The same transaction
 * enqueues the completed copies and the sender's notice (sending/completed-copy.ts), so each is sent
 * exactly once however often this runs. Returns whether it recorded the file; safe to run again.
 */
export async function recordSealedForm(
  deps: Pick<DomainDeps, 'transact' | 'blobs' | 'clock' | 'fileLinks' | 'baseUrl' | 'copies'>,
  p: Partition,
  formId: string,
  pdf: Uint8Array,
  sealedRecipientIds: readonly string[],
  /** The seal job's attempt that sealed it (the Form's `sealing.attempts`). */
  attempt = 1,
  /** The SHA-256 the audit page states (the filled document before the seal), kept for the audit trail served alone. */
  filledSha256: string | null = null,
  /** The language the audit pages were drawn in, so the audit trail served alone is drawn in it too. */
  auditLocale: string | null = null,
  /** The account's rows the messages need, when the caller read them already (the seal job). */
  known?: AccountFacts,
): Promise<boolean> {
  const sha256 = sha256Hex(pdf);
  const key = sealedFileKey(p, formId, sha256);
  await deps.blobs.put(key, pdf, 'application/pdf');
  const now = isoNow(deps.clock);
  // A seal that loses leaves its file unreferenced (rare: races only); it is never the recorded one.
  // One that loses to a deletion deletes its file: a purged form's document must not come back.
  let purged = false;
  const recorded = await deps.transact(async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    purged = !form || form.status === 'deleted';
    if (!form || (form.status !== 'sent' && form.status !== 'viewed')) return false;
    const recipients = await listRecipientsOfForm(trx, p, formId);
    const sealed = new Set(sealedRecipientIds);
    if (recipients.length !== sealed.size || !isComplete(recipients) || recipients.some((r) => !sealed.has(r.id))) return false;
    const file = { form_id: formId, blob_key: key, sha256, size: pdf.byteLength, created_at: now, filled_sha256: filledSha256, audit_locale: auditLocale };
    await insertSealedFile(trx, p, file);
    const sealing = { sealing_status: 'sealed', sealing_attempts: attempt, sealing_error: null, sealing_next_at: null } as const;
    const signed: FormRow = { ...form, ...sealing, status: 'signed', completed_at: now, updated_at: now };
    await setFormSealing(trx, p, formId, { ...sealing, status: 'signed', completed_at: now, updated_at: now });
    await recordFormEvent(trx, p, 'form.signed', formState(signed, recipients), now);
    await enqueueCompletedMessages(trx, deps, p, form, recipients, file, now, known);
    return true;
  });
  if (purged) await deps.blobs.delete(key);
  return recorded;
}
