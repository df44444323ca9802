import type { MessageRow, RecipientCheckLogRow, RecipientCheckRow, RecipientRow, RetiredLinkRow, SigningEvidenceRow } from '../../db/tables.js';
import { formatUtcOffset } from '../signing/consent.js';

// evidence.json of the evidence bundle (issue 40): per recipient, how they were reached, when and
// from where they opened, how they authenticated, what they consented to, and when and from where
// they signed (or declined). Pure: made from the rows the bundle reads, so it is unit-testable.

export interface RecipientEvidence {
  recipient_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  signer: number;
  reached: Array<{ kind: string; channel: string; to: string; status: string; transport: string | null; queued_at: string; delivered_at: string | null; error: string | null }>;
  opened: { at: string; ip: string | null; user_agent: string | null } | null;
  authenticated: { method: string; when: string; steps: Array<{ kind: string; purpose: string; method: string; destination: string | null; ip: string | null; at: string }> } | null;
  consented: { at: string; text: string; locale: string | null; utc_offset: string | null } | null;
  signed: { at: string; ip: string | null; user_agent: string | null } | null;
  declined: { at: string; reason: string | null } | null;
  /** Who held this recipient's earlier links (issue 38 item 5), oldest first: replaced by the sender or passed on by the signer. */
  replaced: Array<{ name: string | null; email: string | null; phone: string | null; replaced_by: string; reason: string | null; at: string }>;
}

export interface EvidenceRows {
  recipients: readonly RecipientRow[];
  messages: readonly MessageRow[];
  checks: readonly RecipientCheckRow[];
  checkLog: readonly RecipientCheckLogRow[];
  consents: readonly SigningEvidenceRow[];
  retired?: readonly RetiredLinkRow[];
}

export function recipientEvidence(rows: EvidenceRows): RecipientEvidence[] {
  return rows.recipients.map((r) => {
    const check = rows.checks.find((c) => c.recipient_id === r.id);
    const consent = rows.consents.find((c) => c.recipient_id === r.id);
    return {
      recipient_id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      signer: r.signer,
      reached: rows.messages.filter((m) => m.recipient_id === r.id).map((m) => ({
        kind: m.kind, channel: m.channel, to: m.to_address, status: m.status, transport: m.transport, queued_at: m.created_at, delivered_at: m.delivered_at, error: m.error,
      })),
      opened: r.viewed_at ? { at: r.viewed_at, ip: r.viewed_ip, user_agent: r.viewed_user_agent } : null,
      authenticated: check
        ? {
            method: check.method, when: check.check_when,
            steps: rows.checkLog.filter((l) => l.recipient_id === r.id).map((l) => ({ kind: l.kind, purpose: l.purpose, method: l.method, destination: l.destination, ip: l.ip, at: l.at })),
          }
        : null,
      consented: consent
        ? { at: consent.created_at, text: consent.consent_text, locale: consent.consent_locale, utc_offset: consent.utc_offset_minutes === null ? null : formatUtcOffset(consent.utc_offset_minutes) }
        : null,
      signed: r.signed_at ? { at: r.signed_at, ip: r.signed_ip, user_agent: r.signed_user_agent } : null,
      declined: r.declined_at ? { at: r.declined_at, reason: r.decline_reason } : null,
      replaced: (rows.retired ?? []).filter((l) => l.recipient_id === r.id).map((l) => ({ name: l.name, email: l.email, phone: l.phone, replaced_by: l.replaced_by, reason: l.reason, at: l.retired_at })),
    };
  });
}
