import { findAccount } from '../../db/repositories/accounts.js';
import { findBranding } from '../../db/repositories/branding.js';
import { listSigningEvidenceOfForm } from '../../db/repositories/signing-evidence.js';
import { listFormAttachments } from '../../db/repositories/form-attachments.js';
import { listCheckLogOfForm, listRecipientChecksOfForm } from '../../db/repositories/signer-checks.js';
import type { AccountBrandingRow, AccountRow, FormAttachmentRow, FormRow, RecipientCheckLogRow, RecipientCheckRow, RecipientRow, RetiredLinkRow, SigningEvidenceRow } from '../../db/tables.js';
import { listRetiredLinksOfForm } from '../../db/repositories/link-replacement.js';
import { DEFAULT_LOCALE, supportedLocale, type Locale } from '../../lib/i18n/index.js';
import type { Partition } from '../../lib/partition.js';
import type { AuditRecipient, AuditTrail } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { displayName } from '../sending/display-name.js';
import { formatUtcOffset } from './consent.js';
import { maskEmail, maskPhone } from './gate/check-rules.js';
import type { SignedImage } from './signing-record.js';

// What the audit trail says of a form, assembled once for the seal (its appended pages) and for the
// audit trail served alone (GET …/audit-trail), so the two say the same.

export interface AuditFacts {
  form: FormRow;
  recipients: readonly RecipientRow[];
  images: readonly SignedImage[];
  templateSha256: string | null;
  /** Null when none was recorded (a form that ended unsealed, or sealed before 0016). */
  filledSha256: string | null;
  completedAt: string | null;
  outcome: string;
  /** When each recipient was reminded (issue #23), oldest first. */
  remindedAt?: (recipientId: string) => string[];
}

export interface AuditContext {
  evidence: readonly SigningEvidenceRow[];
  /** The checks asked of the recipients (issue 38) and what happened in them, oldest first. */
  checks?: readonly RecipientCheckRow[];
  checkLog?: readonly RecipientCheckLogRow[];
  /** The links replaced (issue 38 item 5): who held each recipient's earlier links. */
  retired?: readonly RetiredLinkRow[];
  accountName: string | null;
  /** The language of the audit trail: the account's default (accounts set-locale), else English. */
  locale: Locale;
  /** The account's brand (issue 42): the audit header's colour and logo, and the sender name it states. */
  brand?: AuditTrail['brand'];
  senderName?: string | null;
  /** The files the signers attached and signed with (issue 41), oldest first. */
  attachments?: readonly FormAttachmentRow[];
  /** The rows the account's name, language and brand came from: the seal's messages are composed from them too. */
  rows?: { readonly account: AccountRow | undefined; readonly branding: AccountBrandingRow | undefined };
}

/** The stored facts beside the form: each signer's consent and time zone, the sending account's name and language. */
export async function loadAuditContext(deps: Pick<DomainDeps, 'db'>, p: Partition, formId: string): Promise<AuditContext> {
  const [evidence, account, checks, checkLog, branding, retired, attachments] = await Promise.all([
    listSigningEvidenceOfForm(deps.db, p, formId), findAccount(deps.db, p.accountId), listRecipientChecksOfForm(deps.db, p, formId), listCheckLogOfForm(deps.db, p, formId),
    findBranding(deps.db, p.accountId), listRetiredLinksOfForm(deps.db, p, formId), listFormAttachments(deps.db, p, formId),
  ]);
  const brand = branding ? { accent: branding.accent_color, logoPng: branding.logo_type === 'image/png' && branding.logo ? new Uint8Array(Buffer.from(branding.logo, 'base64')) : null } : null;
  return {
    evidence, accountName: account?.name ?? null, senderName: branding?.sender_name ?? null, locale: supportedLocale(account?.locale) ?? DEFAULT_LOCALE, checks, checkLog, brand, retired,
    attachments: attachments.filter((a) => a.submitted_at !== null), rows: { account, branding },
  };
}

/**
 * The audit trail is one record of the whole form, kept by the sender; its language is the account's
 * default, the language the operator chose for its signers (not the first signer's: signers may each
 * read another language, and the record should not depend on who came first). What each signer read
 * is kept in their own language beside it: the consent is quoted as shown, its language named.
 */
export function auditTrailOf(facts: AuditFacts, context: AuditContext): AuditTrail {
  const byRecipient = new Map(context.evidence.map((e) => [e.recipient_id, e]));
  const { form } = facts;
  return {
    formId: form.id,
    formName: form.name,
    documentId: `${form.id}-signed`,
    templateSha256: facts.templateSha256,
    filledSha256: facts.filledSha256,
    recipients: facts.recipients.map((r) => ({
      ...auditRecipient(r, facts.images.filter((i) => i.recipientId === r.id), byRecipient.get(r.id)),
      ...(facts.remindedAt ? { remindedAt: facts.remindedAt(r.id) } : {}),
      ...auditCheck(r, context),
      ...auditReplaced(r, context),
    })),
    sentBy: context.senderName ?? context.accountName,
    brand: context.brand ?? null,
    completedAt: facts.completedAt,
    outcome: facts.outcome,
    voidReason: form.void_reason,
    locale: context.locale,
    ...(context.attachments && context.attachments.length > 0
      ? { attachments: context.attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, sha256: a.sha256, size: a.size })) }
      : {}),
  };
}

/** The recipient's check and its log (issue 38), the destination masked as the signer saw it. */
function auditCheck(r: RecipientRow, context: AuditContext): Pick<AuditRecipient, 'check' | 'checkLog'> {
  const check = context.checks?.find((c) => c.recipient_id === r.id);
  if (!check) return {};
  const destination = check.method === 'email_code' ? (r.email ? maskEmail(r.email) : null) : check.method === 'sms_code' ? maskPhone(check.phone ?? r.phone ?? '') : null;
  const rank = { code_sent: 0, failed: 1, verified: 2, locked: 3 } as const;
  // Oldest first; within one millisecond, in the order they can happen (sent, refused, passed).
  const checkLog = (context.checkLog ?? []).filter((e) => e.recipient_id === r.id).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : rank[a.kind] - rank[b.kind])).map((e) => ({ kind: e.kind, purpose: e.purpose, at: e.at, ip: e.ip, destination: e.destination }));
  return { check: { method: check.method, when: check.check_when, destination }, checkLog };
}

/** Who held the recipient's earlier links (issue 38 item 5), oldest first; absent when none. */
function auditReplaced(r: RecipientRow, context: AuditContext): Pick<AuditRecipient, 'replaced'> {
  const earlier = (context.retired ?? []).filter((l) => l.recipient_id === r.id);
  if (earlier.length === 0) return {};
  const who = (l: RetiredLinkRow) => {
    const address = (l.channel === 'sms' ? l.phone : l.email) ?? '';
    return l.name ? `${l.name} (${address})` : address;
  };
  return { replaced: earlier.map((l) => ({ who: who(l), by: l.replaced_by, reason: l.reason, at: l.retired_at })) };
}

function auditRecipient(r: RecipientRow, images: readonly SignedImage[], evidence: SigningEvidenceRow | undefined): AuditRecipient {
  return {
    name: displayName(r), email: r.email, phone: r.phone, channel: r.channel, signer: r.signer,
    sentAt: r.sent_at, viewedAt: r.viewed_at, signedAt: r.signed_at ?? r.approved_at, role: r.role,
    viewedIp: r.viewed_ip, viewedUserAgent: r.viewed_user_agent, signedIp: r.signed_ip, signedUserAgent: r.signed_user_agent,
    // One image per distinct picture: a signature repeated in several fields is shown once.
    marks: [...new Map(images.map((i) => [i.sha256, { kind: i.kind, method: i.method, png: i.png }])).values()],
    consentText: evidence?.consent_text ?? null,
    consentLocale: evidence?.consent_locale ?? null,
    declinedAt: r.declined_at, declineReason: r.decline_reason, meaning: r.meaning ?? null,
    utcOffset: evidence?.utc_offset_minutes === null || evidence?.utc_offset_minutes === undefined ? null : formatUtcOffset(evidence.utc_offset_minutes),
  };
}
