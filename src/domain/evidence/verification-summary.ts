import { listRetiredLinksOfForm } from '../../db/repositories/link-replacement.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { listCheckLogOfForm, listRecipientChecksOfForm } from '../../db/repositories/signer-checks.js';
import type { CheckMethod, LinkReplacedBy, RecipientCheckLogRow, RecipientCheckRow, RecipientRow, RetiredLinkRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { loadForm } from '../forms/read-forms.js';
import { maskEmail, maskPhone } from '../signing/gate/check-rules.js';

// The dashboard form page's "who verified when" (issue 38 item 6): per recipient, the check asked of
// them and what happened in it — the method, the masked destination, when codes were sent and
// verified, wrong codes and lockouts — and who held their earlier links. Read from the evidence the
// checks and replacements already store; the destination is masked as the signer saw it.

export interface RecipientVerification {
  recipient_id: string;
  /** Null when the sender asked for no check. */
  method: CheckMethod | null;
  when: 'open' | 'sign' | null;
  destination: string | null;
  codes_sent: string[];
  verified: Array<{ at: string; purpose: 'open' | 'sign' }>;
  failed_attempts: number;
  lockouts: string[];
  /** While a lock lasts, when it ends. */
  locked_until: string | null;
  replaced: Array<{ name: string | null; address: string | null; replaced_by: LinkReplacedBy; reason: string | null; at: string }>;
}

function destinationOf(r: RecipientRow, c: RecipientCheckRow): string | null {
  if (c.method === 'email_code') return r.email ? maskEmail(r.email) : null;
  if (c.method === 'sms_code') return maskPhone(c.phone ?? r.phone ?? '');
  return null;
}

export function verificationOf(r: RecipientRow, check: RecipientCheckRow | undefined, log: readonly RecipientCheckLogRow[], retired: readonly RetiredLinkRow[], nowIso: string): RecipientVerification {
  const mine = log.filter((e) => e.recipient_id === r.id);
  return {
    recipient_id: r.id,
    method: check?.method ?? null,
    when: check?.check_when ?? null,
    destination: check ? destinationOf(r, check) : null,
    codes_sent: mine.filter((e) => e.kind === 'code_sent').map((e) => e.at),
    verified: mine.filter((e) => e.kind === 'verified').map((e) => ({ at: e.at, purpose: e.purpose })),
    failed_attempts: mine.filter((e) => e.kind === 'failed').length,
    lockouts: mine.filter((e) => e.kind === 'locked').map((e) => e.at),
    locked_until: check?.locked_until && check.locked_until > nowIso ? check.locked_until : null,
    replaced: retired.filter((l) => l.recipient_id === r.id).map((l) => ({ name: l.name, address: l.channel === 'sms' ? l.phone : l.email, replaced_by: l.replaced_by, reason: l.reason, at: l.retired_at })),
  };
}

export async function formVerification(deps: Pick<DomainDeps, 'db' | 'clock'>, p: Partition, formId: string): Promise<{ object: 'list'; data: RecipientVerification[] }> {
  const form = await loadForm(deps, p, formId);
  const [recipients, checks, log, retired] = await Promise.all([
    listRecipientsOfForm(deps.db, p, form.id), listRecipientChecksOfForm(deps.db, p, form.id), listCheckLogOfForm(deps.db, p, form.id), listRetiredLinksOfForm(deps.db, p, form.id),
  ]);
  const now = deps.clock.now().toISOString();
  return { object: 'list', data: recipients.map((r) => verificationOf(r, checks.find((c) => c.recipient_id === r.id), log, retired, now)) };
}
