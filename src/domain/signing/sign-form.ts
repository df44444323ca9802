import { setFormSealing } from '../../db/repositories/form-sealing.js';
import { markRecipientSigned, setFormValues } from '../../db/repositories/recipient-signing.js';
import { insertSignature } from '../../db/repositories/signatures.js';
import { insertSigningEvidence } from '../../db/repositories/signing-evidence.js';
import { deleteRecipientDraft } from '../../db/repositories/signing-drafts.js';
import type { Trx } from '../../db/handles.js';
import type { RecipientRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { isComplete } from '../sending/recipient-roles.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { formSeal } from '../../outbox/jobs/form-seal.job.js';
import type { FieldValue } from '../../pdf/field.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { formFields } from '../forms/read-forms.js';
import { advanceTurn } from '../lifecycle/advance-turn.js';
import { refuseClosedLink } from '../lifecycle/closed-links.js';
import type { SigningLink } from './resolve-link.js';
import { lockLinkForm } from './lock-link-form.js';
import { parseUtcOffset, shownConsent } from './consent.js';
import { checkSubmission, type SubmittedImage } from './signing-rules.js';
import { listRecipientAttachments } from '../../db/repositories/form-attachments.js';
import { attachedValues, bindAttachments } from './attachments/signer-attachments.js';
import { withFieldLogic } from '../forms/prefill-rules.js';
import { markViewed, type Client } from './view-form.js';

export interface SignInput {
  /** This signer's fields: values as prefill takes them; signature and initials as `{image, method}`. */
  values: Record<string, unknown>;
  /** The signer agreed to sign electronically (ESIGN/UETA): must be `true`. */
  consent: unknown;
  /** The signer's UTC offset in minutes east, as the page's browser reports it; anything else is not recorded. */
  utcOffsetMinutes?: unknown;
  /** The language the page was shown in, as the page says (its consent is recorded in it). */
  locale?: unknown;
  /** Without `locale`: what the request says of the language (the menu's `?lang`, Accept-Language). */
  languageChoices?: { picked: string | null; accepted: readonly string[] };
}

export interface SignResult {
  /** Every recipient has now signed: the seal job was enqueued with this signature. */
  complete: boolean;
}

type SignDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'blobs' | 'templateCache' | 'links' | 'baseUrl'>;

/**
 * A recipient signs: their values checked as prefill is, their signature images stored in the blob
 * store, then in ONE transaction the form's values, the recipient `signed` (time, IP, user agent), a
 * row per image, and — when this was the last recipient — the seal job. The form stays `sent`/`viewed`:
 * it becomes `signed` only when the seal job has stored the sealed file.
 */
export async function signForm(deps: SignDeps, link: SigningLink, input: SignInput, client: Client): Promise<SignResult> {
  const { partition: p, form, recipient } = link;
  refuseClosedLink(link);
  if (recipient.role !== 'signer') throw new AppError('parameter_invalid', `You are the ${recipient.role} of this document, not a signer: there is nothing for you to sign.`);
  if (input.consent !== true) throw new AppError('parameter_invalid', 'Tick the box to agree to sign electronically before you finish.', 'consent');
  const consent = await shownConsent(deps, p, recipient, input.locale, input.languageChoices ?? { picked: null, accepted: [] });
  const fields = await formFields(deps, p, form);
  const at = isoNow(deps.clock);
  const current = JSON.parse(form.values) as Record<string, FieldValue>;
  // The files this signer attached (issue 41) are their attachment fields' values.
  const attached = fields.defs.some((d) => d.type === 'attachment') ? attachedValues(await listRecipientAttachments(deps.db, p, recipient.id)) : {};
  const checked = checkSubmission(fields.defs, recipient.signer, input.values, current, at.slice(0, 10), attached);
  // Images are content-addressed, so a retried submission rewrites the same keys; stored before the
  // transaction because a blob store is not part of it (an image no row names is harmless).
  const keyed = checked.images.map((image) => ({ image, key: imageKey(p, form.id, recipient.id, image) }));
  for (const { image, key } of keyed) await deps.blobs.put(key, image.png, 'image/png');
  const seen = { at, ...client };
  const { result, dropped } = await deps.transact(async (trx) => {
    const { locked } = await lockLinkForm(trx, link, at);
    if (locked.status === 'expired' || (locked.expires_at !== null && locked.expires_at <= at)) {
      throw new AppError('form_expired', 'This document expired before it was signed. Ask the sender to send it again.');
    }
    if (locked.status === 'signed') throw new AppError('form_not_sendable', 'This document has already been signed by everyone.');
    if (locked.status === 'declined' || locked.status === 'voided') refuseClosedLink({ ...link, state: locked.status });
    // A signature without a page view before it (a client posting directly) still records the view.
    await markViewed(trx, deps, p, form.id, recipient.id, seen);
    const signed = await markRecipientSigned(trx, p, recipient.id, seen);
    if (!signed) throw new AppError('form_not_sendable', 'You have already signed this document.');
    // The values typed so far (issue 43) have no use left: they are the signature's now.
    await deleteRecipientDraft(trx, p, recipient.id);
    await insertSigningEvidence(trx, p, { recipient_id: recipient.id, form_id: form.id, consent_text: consent.text, consent_locale: consent.locale, utc_offset_minutes: parseUtcOffset(input.utcOffsetMinutes), created_at: at });
    // Formulas and conditions over the whole form as it stands at commit (issue 41): another signer's
    // values committed since this page loaded count too.
    const merged = withFieldLogic(fields.defs, { ...(JSON.parse(locked.values) as Record<string, FieldValue>), ...checked.values });
    await setFormValues(trx, p, form.id, JSON.stringify(merged), at);
    const dropped = await bindAttachments(trx, p, recipient.id, merged, fields.defs, at);
    for (const { image, key } of keyed) {
      await insertSignature(trx, p, {
        form_id: form.id, recipient_id: recipient.id, field_name: image.fieldName ?? ownSignatureField(recipient.id), kind: image.kind,
        method: image.method, blob_key: key, sha256: image.sha256, width: image.width, height: image.height, created_at: at,
      });
    }
    // Sequential order: the next recipient's turn comes with this signature, in this unit.
    const recipients = await advanceTurn(trx, deps, p, locked, at);
    return { result: { complete: await sealWhenComplete(trx, p, form.id, recipients, at) }, dropped };
  });
  // Files of fields the signature left hidden: their rows went with it; a file that stays is in the
  // form's folder, which its purge empties.
  for (const key of dropped) await deps.blobs.delete(key).catch(() => undefined);
  return result;
}

/**
 * When every signer and approver is done (cc and viewers never hold a form open), the seal job is
 * enqueued in the caller's unit (the last signature or approval). Returns whether it was.
 */
export async function sealWhenComplete(trx: Trx, p: Partition, formId: string, recipients: readonly RecipientRow[], at: string): Promise<boolean> {
  if (!isComplete(recipients)) return false;
  await enqueue(trx, p, formSeal, { form_id: formId }, { now: at });
  // The Form shows `sealing: pending` from this signature until the seal is stored (issue 25).
  await setFormSealing(trx, p, formId, { sealing_status: 'pending', sealing_attempts: 0, sealing_error: null, sealing_next_at: null });
  return true;
}

/**
 * The `signatures.field_name` of a recipient's signature for an added signature page (a recipient
 * whose slot has no signature field): `recipient:<recipient id>`, which no real field is named.
 */
export function ownSignatureField(recipientId: string): string {
  return `recipient:${recipientId}`;
}

function imageKey(p: Partition, formId: string, recipientId: string, image: SubmittedImage): string {
  return `${p.accountId}/${p.mode}/signatures/${formId}/${recipientId}-${image.sha256.slice(0, 32)}.png`;
}
