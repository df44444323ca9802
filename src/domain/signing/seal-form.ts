import { recordSealAttemptFailed } from '../../db/repositories/form-sealing.js';
import { findForm } from '../../db/repositories/forms.js';
import { listRemindersOfForm } from '../../db/repositories/lifecycle.js';
import { findAccountNotify } from '../../db/repositories/notify-settings.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { isComplete } from '../sending/recipient-roles.js';
import { findTemplate } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { JobHandler } from '../../outbox/job.js';
import type { FieldValue, JobOptions, SealRequest, SealResult } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { formFields } from '../forms/read-forms.js';
import { inSigningOrder } from '../lifecycle/lifecycle-rules.js';
import { displayName } from '../sending/display-name.js';
import type { AccountFacts } from '../sending/sender-notice.js';
import { auditTrailOf, loadAuditContext } from './audit-record.js';
import { recordSealedForm } from './record-sealed-form.js';
import { loadSigningRecord, type SignedImage } from './signing-record.js';
import type { FormAttachmentRow, RecipientRow } from '../../db/tables.js';
import type { FieldDef } from '../../pdf/field.js';

/** What the seal job needs: the form's stores and a sealer (the PDF pool, or in-process). */
export type SealDeps = Pick<DomainDeps, 'db' | 'transact' | 'blobs' | 'clock' | 'templateCache' | 'fileLinks' | 'baseUrl' | 'copies'> & {
  /**
   * Seals in the PDF pool (off the event loop), fairly between accounts like every PDF job: fills the
   * template, flattens, draws and signs in one parse on one worker thread (seal-pdf.ts); with
   * TSA_URLS set, B-T to B-LTA or TimestampUnavailableError (nothing sealed, the job retries);
   * SigningCertificateRefusedError for a revoked or expired certificate.
   */
  seal(req: SealRequest, opts: JobOptions): Promise<SealResult>;
};

/**
 * The `form.seal` job: when every recipient has signed, fill the template with every value,
 * stamp the signatures, append the audit trail, PAdES-sign it, store it, and only then make the form
 * `signed` with `form.signed` (record-sealed-form.ts, one transaction). A failure throws and the worker
 * retries it with backoff; after the last attempt the job is `dead` and listed by
 * `formsign outbox list --status dead`. Running it again is safe: a signed form is left alone.
 * Each failure is recorded on the form beside the reschedule (`sealing`: pending with the attempts,
 * the error and the next attempt's time; `failed` after the last), so a seal never fails unseen;
 * `POST /forms/{id}/reseal` starts it again (reseal-form.ts).
 */
export function formSealHandler(deps: SealDeps): JobHandler<{ form_id: string }> {
  return {
    async run(payload, ctx) {
      const sealed = await buildSealedPdf(deps, ctx.partition, payload.form_id, ctx.signal);
      if (sealed) await recordSealedForm(deps, ctx.partition, payload.form_id, sealed.pdf, sealed.recipientIds, ctx.attempt, null, sealed.auditLocale, sealed.account);
    },
    async failed(trx, payload, ctx, failure) {
      await recordSealAttemptFailed(trx, ctx.partition, payload.form_id, {
        sealing_status: failure.dead ? 'failed' : 'pending',
        sealing_attempts: ctx.attempt,
        sealing_error: failure.error,
        sealing_next_at: failure.retryAt,
      });
    },
  };
}

/**
 * The sealed document of a fully signed form and the recipients it seals; undefined when there is
 * nothing (more) to seal. The template is filled in the seal's own parse (one PDF job): no filled
 * file exists between the two, so the audit trail states no hash of one (`filledSha256` null; the
 * template's SHA-256 and the seal over the document as drawn are the evidence). Seals made before
 * kept theirs, and their audit copies still state it.
 */
export async function buildSealedPdf(deps: SealDeps, p: Partition, formId: string, signal?: AbortSignal): Promise<{ pdf: Uint8Array; recipientIds: string[]; auditLocale: string; account: AccountFacts | undefined } | undefined> {
  const form = await findForm(deps.db, p, formId);
  // Only a form still out is sealed: a signed one is done, a voided or declined one never will be.
  if (!form || (form.status !== 'sent' && form.status !== 'viewed')) return undefined;
  // Everything else the seal reads, read at once rather than one round trip after another: the
  // worker keeps several seals in flight and the PDF thread fed while their reads overlap (issue 36).
  const quiet = <T>(promise: Promise<T>): Promise<T> => {
    promise.catch(() => undefined);
    return promise;
  };
  const reads = {
    fields: quiet(formFields(deps, p, form)),
    record: quiet(loadSigningRecord(deps, p, form.id, form.values)),
    source: quiet(deps.blobs.get(form.pdf_key)),
    template: quiet(form.template_id ? findTemplate(deps.db, p, form.template_id) : Promise.resolve(undefined)),
    context: quiet(loadAuditContext(deps, p, form.id)),
    reminders: quiet(listRemindersOfForm(deps.db, p, form.id)),
    notify: quiet(findAccountNotify(deps.db, p.accountId)),
  };
  const recipients = await listRecipientsOfForm(deps.db, p, form.id);
  // A recipient added after the last signature (a form is sendable until it is signed) makes this job
  // obsolete: that recipient's signature enqueues the seal again.
  if (!isComplete(recipients)) return undefined;
  const [fields, record, source, template, context, reminders, notify] = await Promise.all([reads.fields, reads.record, reads.source, reads.template, reads.context, reads.reminders, reads.notify]);
  if (!source) throw new Error(`source PDF ${form.pdf_key} of ${form.id} is missing from the blob store`);
  const job: JobOptions = { owner: p.accountId, signal };
  const byId = new Map(recipients.map((r) => [r.id, r]));
  const signingTime = deps.clock.now();
  const remindedAt = (id: string) => reminders.filter((x) => x.recipient_id === id).map((x) => x.created_at);
  // A sequential form's audit lists its signers in the order they signed in.
  const listed = form.signing_order === 'sequential' ? inSigningOrder(recipients) : recipients;
  const req: SealRequest = {
    document: source,
    values: record.values,
    fields: fields.defs,
    marks: record.images.flatMap((i) => (i.fieldName === null ? [] : [{ field: i.fieldName, png: i.png, caption: manifestation(byId.get(i.recipientId), i) }])),
    dates: datesSigned(fields.defs, record.values),
    extraSigners: record.images.flatMap((i) => {
      const r = byId.get(i.recipientId);
      return i.fieldName === null && r ? [{ name: displayName(r), signer: r.signer, png: i.png, signedAt: i.signedAt, meaning: r.meaning ?? null }] : [];
    }),
    audit: auditTrailOf({
      form, recipients: listed, images: record.images, templateSha256: template?.pdf_sha256 ?? null, filledSha256: null,
      completedAt: signingTime.toISOString(), outcome: 'signed', remindedAt,
    }, context),
    signingTime,
    attachments: await attachedFiles(deps, fields.defs, context.attachments ?? []),
  };
  const account: AccountFacts | undefined = context.rows ? { ...context.rows, notify } : undefined;
  return { pdf: (await deps.seal(req, job)).pdf, recipientIds: recipients.map((r) => r.id), auditLocale: context.locale, account };
}

/**
 * The files the signers attached (issue 41), in the order of their fields, then as attached; their
 * bytes from the blob store (a missing one fails the seal, which retries: a seal never leaves one out).
 */
async function attachedFiles(deps: Pick<SealDeps, 'blobs'>, defs: readonly FieldDef[], rows: readonly FormAttachmentRow[]): Promise<NonNullable<SealRequest['attachments']>> {
  const order = new Map(defs.map((d, i) => [d.name, i]));
  const sorted = [...rows].sort((a, b) => (order.get(a.field_name) ?? 0) - (order.get(b.field_name) ?? 0));
  const out: NonNullable<SealRequest['attachments']>[number][] = [];
  for (const r of sorted) {
    const bytes = await deps.blobs.get(r.blob_key);
    if (!bytes) throw new Error(`attachment ${r.id} (${r.blob_key}) of ${r.form_id} is missing from the blob store`);
    out.push({ field: r.field_name, filename: r.filename, contentType: r.content_type, sha256: r.sha256, size: r.size, bytes });
  }
  return out;
}

/**
 * A signature's manifestation (issue 38, 21 CFR 11.50): its meaning, the signer's name and the UTC time,
 * printed under a signature (not initials) of a recipient the send gave a meaning.
 */
export function manifestation(r: Pick<RecipientRow, 'meaning' | 'name' | 'email' | 'phone' | 'channel'> | undefined, image: Pick<SignedImage, 'kind' | 'signedAt'>): string | undefined {
  if (!r?.meaning || image.kind !== 'signature') return undefined;
  return `${r.meaning} · ${displayName(r)} · ${image.signedAt.slice(0, 19).replace('T', ' ')} UTC`;
}

function datesSigned(defs: ReadonlyArray<{ name: string; type: string }>, values: Record<string, FieldValue>): Record<string, string> {
  const dates: Record<string, string> = {};
  for (const d of defs) {
    const v = values[d.name];
    if (d.type === 'date_signed' && typeof v === 'string') dates[d.name] = v;
  }
  return dates;
}
