import { allEventsOfForm, messagesOfForm } from '../../db/repositories/form-evidence.js';
import { listRetiredLinksOfForm } from '../../db/repositories/link-replacement.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { listCheckLogOfForm, listRecipientChecksOfForm } from '../../db/repositories/signer-checks.js';
import { listSigningEvidenceOfForm } from '../../db/repositories/signing-evidence.js';
import { findSealedFile } from '../../db/repositories/sealed-files.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, manifestOf } from '../../lib/bundle-manifest.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import { zipEntries, type ZipEntry } from '../../lib/zip.js';
import { signDetached, type JobOptions } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { eventJson } from '../forms/present-form.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import { readSignedPdf } from '../forms/signed-pdf.js';
import { auditTrailPdf } from './audit-trail-pdf.js';
import { recipientEvidence } from './evidence-record.js';

type Deps = Pick<DomainDeps, 'db' | 'blobs' | 'auditTrailPdf' | 'signingCertificate' | 'templateCache' | 'links' | 'clock'>;

const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const pretty = (v: unknown): Uint8Array => utf8(`${JSON.stringify(v, null, 2)}\n`);

/**
 * `GET /forms/{id}/evidence` (issue 40): one ZIP that proves what happened to a signed form, checkable
 * offline — signed.pdf (the sealed document), audit-trail.pdf, events.json (every event of the form,
 * oldest first, each exactly the body its webhook deliveries carry), evidence.json (per recipient: how
 * reached, opened, authenticated, consented, signed, with IPs, user agents and times), manifest.json
 * (each file's SHA-256) and manifest.json.p7s, a detached CMS signature over manifest.json made with
 * the seal key. A form without a sealed PDF answers 409 `form_not_signed` (a deleted one too: its
 * evidence went with its data).
 */
export async function evidenceBundle(deps: Deps, p: Partition, formId: string, job: JobOptions): Promise<{ zip: Uint8Array; filename: string }> {
  const form = await loadForm(deps, p, formId);
  const { pdf: signed } = await readSignedPdf(deps, p, form.id);
  const [audit, events, fields, recipients, messages, checks, checkLog, consents, sealed, retired] = await Promise.all([
    auditTrailPdf(deps, p, form.id, job),
    allEventsOfForm(deps.db, p, form.id),
    formFields(deps, p, form),
    listRecipientsOfForm(deps.db, p, form.id),
    messagesOfForm(deps.db, p, form.id),
    listRecipientChecksOfForm(deps.db, p, form.id),
    listCheckLogOfForm(deps.db, p, form.id),
    listSigningEvidenceOfForm(deps.db, p, form.id),
    findSealedFile(deps.db, p, form.id),
    listRetiredLinksOfForm(deps.db, p, form.id),
  ]);
  const evidence = {
    object: 'evidence', form_id: form.id, mode: form.mode, form_name: form.name, template_id: form.template_id,
    created_at: form.created_at, sent_at: form.sent_at, completed_at: form.completed_at,
    sealed: sealed ? { sha256: sealed.sha256, filled_sha256: sealed.filled_sha256 ?? null, sealed_at: sealed.created_at, size: sealed.size } : null,
    sealed_by: deps.signingCertificate.subject,
    recipients: recipientEvidence({ recipients, messages, checks, checkLog, consents, retired }),
  };
  const files: ZipEntry[] = [
    { name: 'signed.pdf', data: signed },
    { name: 'audit-trail.pdf', data: audit.pdf },
    // The events as delivered: each one's bytes are the webhook body, joined into one JSON array.
    { name: 'events.json', data: utf8(`[${events.map((e) => eventJson(e, fields, deps.links).json).join(',\n')}]\n`) },
    { name: 'evidence.json', data: pretty(evidence) },
  ];
  const now = isoNow(deps.clock);
  const manifest = pretty(manifestOf(files, { form_id: form.id, created_at: now, signed_by: deps.signingCertificate.subject }));
  const signature = await signDetached(manifest, deps.signingCertificate);
  const zip = zipEntries([...files, { name: MANIFEST_FILE, data: manifest }, { name: MANIFEST_SIGNATURE_FILE, data: new Uint8Array(signature) }], new Date(now));
  return { zip, filename: `${form.id}-evidence.zip` };
}
