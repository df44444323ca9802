import { findAccount } from '../../db/repositories/accounts.js';
import { listSigningEvidenceOfForm } from '../../db/repositories/signing-evidence.js';
import type { FormRow, RecipientRow, SigningEvidenceRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { AuditRecipient, AuditTrail } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { displayName } from '../sending/display-name.js';
import { formatUtcOffset } from './consent.js';
import type { SignedImage } from './signing-record.js';

// What the audit trail says of a form, assembled once for the seal (its appended pages) and for the
// audit trail served alone (GET …/audit-trail), so the two say the same.

export interface AuditFacts {
  form: FormRow;
  recipients: readonly RecipientRow[];
  images: readonly SignedImage[];
  templateSha256: string | null;
  filledSha256: string;
  completedAt: string | null;
  outcome: string;
  /** When each recipient was reminded (issue #23), oldest first. */
  remindedAt?: (recipientId: string) => string[];
}

/** The stored facts beside the form: each signer's consent and time zone, and the sending account's name. */
export async function loadAuditContext(deps: Pick<DomainDeps, 'db'>, p: Partition, formId: string): Promise<{ evidence: SigningEvidenceRow[]; accountName: string | null }> {
  const [evidence, account] = await Promise.all([listSigningEvidenceOfForm(deps.db, p, formId), findAccount(deps.db, p.accountId)]);
  return { evidence, accountName: account?.name ?? null };
}

export function auditTrailOf(facts: AuditFacts, context: { evidence: readonly SigningEvidenceRow[]; accountName: string | null }): AuditTrail {
  const byRecipient = new Map(context.evidence.map((e) => [e.recipient_id, e]));
  const { form } = facts;
  return {
    formId: form.id,
    formName: form.name,
    documentId: `${form.id}-signed`,
    templateSha256: facts.templateSha256,
    filledSha256: facts.filledSha256,
    recipients: facts.recipients.map((r) => ({ ...auditRecipient(r, facts.images.filter((i) => i.recipientId === r.id), byRecipient.get(r.id)), ...(facts.remindedAt ? { remindedAt: facts.remindedAt(r.id) } : {}) })),
    sentBy: context.accountName,
    completedAt: facts.completedAt,
    outcome: facts.outcome,
  };
}

function auditRecipient(r: RecipientRow, images: readonly SignedImage[], evidence: SigningEvidenceRow | undefined): AuditRecipient {
  const address = r.channel === 'sms' ? r.phone : r.email;
  return {
    name: displayName(r), email: r.email, phone: r.phone, channel: r.channel, signer: r.signer,
    sentAt: r.sent_at, viewedAt: r.viewed_at, signedAt: r.signed_at,
    viewedIp: r.viewed_ip, viewedUserAgent: r.viewed_user_agent, signedIp: r.signed_ip, signedUserAgent: r.signed_user_agent,
    // One image per distinct picture: a signature repeated in several fields is shown once.
    marks: [...new Map(images.map((i) => [i.sha256, { kind: i.kind, method: i.method, png: i.png }])).values()],
    consentText: evidence?.consent_text ?? null,
    authentication: `Signing link sent by ${r.channel === 'sms' ? 'SMS' : 'e-mail'} to ${address ?? 'the recipient'}; whoever opened it could sign`,
    utcOffset: evidence?.utc_offset_minutes === null || evidence?.utc_offset_minutes === undefined ? null : formatUtcOffset(evidence.utc_offset_minutes),
  };
}
