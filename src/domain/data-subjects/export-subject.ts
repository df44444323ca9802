import { formIdsOfAddress, recordDataSubjectRequest } from '../../db/repositories/data-subjects.js';
import { messagesOfForm } from '../../db/repositories/form-evidence.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { listCheckLogOfForm, listRecipientChecksOfForm } from '../../db/repositories/signer-checks.js';
import { listSigningEvidenceOfForm } from '../../db/repositories/signing-evidence.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { zipEntries, type ZipEntry } from '../../lib/zip.js';
import type { JobOptions } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { auditTrailPdf } from '../evidence/audit-trail-pdf.js';
import { recipientEvidence } from '../evidence/evidence-record.js';
import { loadForm } from '../forms/read-forms.js';
import { readSignedPdf } from '../forms/signed-pdf.js';
import { isTerminal } from '../forms/terminal-statuses.js';
import { subjectOf, type SubjectInput } from './subject-address.js';

type Deps = Pick<DomainDeps, 'db' | 'transact' | 'blobs' | 'auditTrailPdf' | 'signingCertificate' | 'clock'>;

const pretty = (v: unknown): Uint8Array => new Uint8Array(Buffer.from(`${JSON.stringify(v, null, 2)}\n`, 'utf8'));

/**
 * `GET /data-subjects/export?email=…|phone=…` (issue 40): a ZIP of what this partition holds about one
 * person — for every form where that address is a recipient, `forms/<id>/record.json` (the form's head
 * and, for each of the person's recipient entries, what we hold: name, addresses, how they were
 * reached with each message's text, opened, authenticated, consented, signed or declined, with IPs,
 * user agents and times), `forms/<id>/signed.pdf` when it is signed and `forms/<id>/audit-trail.pdf`
 * once it has ended; and `subject.json` listing them. The request is recorded (data_subject_requests,
 * the address as its SHA-256). A person with no forms gets a ZIP with an empty list.
 */
export async function exportSubject(deps: Deps, p: Partition, input: SubjectInput, by: string | null, job: JobOptions): Promise<{ zip: Uint8Array; filename: string }> {
  const subject = subjectOf(input);
  const formIds = await formIdsOfAddress(deps.db, p, subject.key);
  const entries: ZipEntry[] = [];
  const listed: Array<{ form_id: string; status: string; files: string[] }> = [];
  for (const formId of formIds) {
    const form = await loadForm(deps, p, formId);
    const [recipients, messages, checks, checkLog, consents] = await Promise.all([
      listRecipientsOfForm(deps.db, p, formId), messagesOfForm(deps.db, p, formId), listRecipientChecksOfForm(deps.db, p, formId),
      listCheckLogOfForm(deps.db, p, formId), listSigningEvidenceOfForm(deps.db, p, formId),
    ]);
    const theirs = recipients.filter((r) => r.address_key === subject.key || r.phone === subject.key);
    const ids = new Set(theirs.map((r) => r.id));
    const record = {
      form: { id: form.id, name: form.name, status: form.status, template_id: form.template_id, created_at: form.created_at, sent_at: form.sent_at, completed_at: form.completed_at },
      recipients: recipientEvidence({ recipients: theirs, messages, checks, checkLog, consents }),
      messages: messages.filter((m) => m.recipient_id !== null && ids.has(m.recipient_id)).map((m) => ({
        id: m.id, recipient_id: m.recipient_id, kind: m.kind, channel: m.channel, to: m.to_address, subject: m.subject, text: m.text, status: m.status, created_at: m.created_at, delivered_at: m.delivered_at,
      })),
    };
    const files = [{ name: `forms/${form.id}/record.json`, data: pretty(record) }];
    if (form.status === 'signed') files.push({ name: `forms/${form.id}/signed.pdf`, data: (await readSignedPdf(deps, p, form.id)).pdf });
    if (isTerminal(form.status)) files.push({ name: `forms/${form.id}/audit-trail.pdf`, data: (await auditTrailPdf(deps, p, form.id, job)).pdf });
    entries.push(...files);
    listed.push({ form_id: form.id, status: form.status, files: files.map((f) => f.name) });
  }
  const now = isoNow(deps.clock);
  const summary = { object: 'data_subject_export', [subject.kind]: subject.key, mode: p.mode, created_at: now, forms: listed };
  await deps.transact((trx) => recordDataSubjectRequest(trx, p, { id: newId('dataSubjectRequest'), kind: 'export', subject_sha256: subject.sha256, forms: formIds.length, refused: '[]', requested_by: by, created_at: now }));
  return { zip: zipEntries([{ name: 'subject.json', data: pretty(summary) }, ...entries], new Date(now)), filename: `data-subject-export-${now.slice(0, 10)}.zip` };
}
