import { retiredLinksOfRecipients } from '../../db/repositories/link-replacement.js';
import { findMessage, listMessages } from '../../db/repositories/messages.js';
import type { MessageRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';

// The dev outbox in the dashboard (issue 24): the messages a partition's sends composed, as kept in
// the messages table, newest first, with each recipient's signing link — so the quick start reaches a
// signed PDF from the browser alone. Only the channels that have no real provider are shown, and a
// dashboard user's sign-in or reset e-mail only to that user (another user of the account could
// otherwise sign in as them).

export interface DevOutboxChannels {
  readonly email: boolean;
  readonly sms: boolean;
}

export interface DevMessageView {
  object: 'dev_message';
  id: string;
  /** Null for an e-mail about a user's dashboard access (a sign-in or reset link). */
  form_id: string | null;
  /** Null for a notice to the account (its notify_email), which no one signs. */
  recipient_id: string | null;
  kind: MessageRow['kind'];
  channel: MessageRow['channel'];
  to: string;
  subject: string | null;
  text: string;
  has_html: boolean;
  signing_url: string | null;
  status: MessageRow['status'];
  error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** Who looks: a sign-in or reset e-mail is shown to the user it was sent to alone (it signs them in). */
export interface DevOutboxViewer {
  readonly email: string;
}

const ACCESS_KINDS: ReadonlySet<MessageRow['kind']> = new Set(['sign_in_link', 'password_reset']);

const shown = (channels: DevOutboxChannels, viewer: DevOutboxViewer, row: Pick<MessageRow, 'channel' | 'kind' | 'to_address'>) =>
  (row.channel === 'sms' ? channels.sms : channels.email) && (!ACCESS_KINDS.has(row.kind) || row.to_address === viewer.email);

export async function listDevOutbox(deps: Pick<DomainDeps, 'db' | 'links'>, p: Partition, channels: DevOutboxChannels, viewer: DevOutboxViewer, limit = 50): Promise<{ object: 'list'; data: DevMessageView[]; has_more: false }> {
  const rows = await listMessages(deps.db, { partition: p, limit });
  // An invitation carries the link live when it was written: a recipient changed since (issue 38) has
  // a link generation for each replacement made up to then (the new invite shares its replacement's time).
  const retired = await retiredLinksOfRecipients(deps.db, p, [...new Set(rows.flatMap((r) => (r.recipient_id !== null && r.kind === 'invite' ? [r.recipient_id] : [])))]);
  const generationAt = (recipientId: string, at: string) => retired.filter((l) => l.recipient_id === recipientId && l.retired_at <= at).length;
  const data = rows.filter((r) => shown(channels, viewer, r)).map((r) => ({
    object: 'dev_message' as const,
    id: r.id,
    form_id: r.form_id,
    recipient_id: r.recipient_id,
    kind: r.kind,
    channel: r.channel,
    to: r.to_address,
    subject: r.subject,
    text: r.text,
    has_html: r.html !== null,
    // Only an invitation carries the recipient's signing link (a completed copy links the signed PDF).
    signing_url: r.recipient_id !== null && r.kind === 'invite' ? deps.links.url(r.recipient_id, generationAt(r.recipient_id, r.created_at)) : null,
    status: r.status,
    error: r.error,
    created_at: r.created_at,
    delivered_at: r.delivered_at,
  }));
  return { object: 'list', data, has_more: false };
}

/** The e-mail's HTML as composed; another partition's message, or an SMS, is not found. */
export async function devMessageHtml(deps: Pick<DomainDeps, 'db'>, p: Partition, channels: DevOutboxChannels, viewer: DevOutboxViewer, id: string): Promise<string> {
  const row = await findMessage(deps.db, p, id);
  if (!row || row.html === null || !shown(channels, viewer, row)) throw notFound('message', id);
  return row.html;
}
