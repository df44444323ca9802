import { findAccount } from '../../db/repositories/accounts.js';
import { linkUrlOf } from '../../lib/signing-links.js';
import { markRecipientMessaged } from '../../db/repositories/lifecycle.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import type { Trx } from '../../db/handles.js';
import type { RecipientRow } from '../../db/tables.js';
import { pickLocale } from '../../lib/i18n/index.js';
import { loadBrandLook } from '../branding/brand-look.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { composeMessage } from '../sending/compose-message.js';
import { nextInTurn } from './lifecycle-rules.js';
import { addressOf, queueMessage, scheduleReminders, type MessageContext } from './message-recipient.js';

/**
 * The invite of one recipient: composed, queued for delivery, and its reminders promised. A new link
 * after a correction (reassign-recipient.ts) says `reminders: false`: the ones promised at the first
 * invite still run and reach the recipient as the row is then.
 */
export async function inviteRecipient(trx: Trx, deps: Pick<DomainDeps, 'links'>, p: Partition, ctx: MessageContext, r: RecipientRow, now: string, opts: { reminders?: boolean } = {}): Promise<void> {
  const message = composeMessage({
    role: r.role,
    message: r.message,
    subject: r.subject,
    brand: ctx.brand,
    channel: r.channel,
    to: addressOf(r),
    recipientName: r.name,
    formName: ctx.form.name ?? 'a document',
    accountName: ctx.accountName,
    signingUrl: linkUrlOf(deps.links, r),
    expiresAt: ctx.form.expires_at,
    // Written now, once: the recipient's language, else the account's (no browser to ask yet).
    locale: pickLocale([r.locale, ctx.accountLocale]),
  });
  await queueMessage(trx, p, ctx.form.id, r, 'invite', message, now);
  // A cc is told, not asked: nothing to remind them of.
  if (r.role !== 'cc' && opts.reminders !== false) await scheduleReminders(trx, p, ctx.form, r.id, now);
}

/** What every message of the account's form needs to know of the account: its name, language and brand. */
export async function messageContextOf(trx: Trx, deps: Pick<DomainDeps, 'baseUrl'>, p: Partition, form: MessageContext['form']): Promise<MessageContext> {
  const account = await findAccount(trx, p.accountId);
  const accountName = account?.name ?? 'Formsign';
  return { form, accountName, accountLocale: account?.locale ?? null, brand: await loadBrandLook(trx, deps.baseUrl, p.accountId, accountName) };
}

/**
 * Sequential order: when the recipient whose turn has come is still `waiting`, it becomes `sent` and
 * gets its invite, in the caller's unit (a send, or the signature of the one before it). Returns the
 * form's recipients as they are after it. A parallel form has no one waiting, so nothing happens.
 */
export async function advanceTurn(trx: Trx, deps: Pick<DomainDeps, 'links' | 'baseUrl'>, p: Partition, form: MessageContext['form'], now: string): Promise<RecipientRow[]> {
  const recipients = await listRecipientsOfForm(trx, p, form.id);
  const next = nextInTurn(recipients);
  if (!next) return recipients;
  const messaged = await markRecipientMessaged(trx, p, next.id, now);
  if (!messaged) return recipients;
  await inviteRecipient(trx, deps, p, await messageContextOf(trx, deps, p, form), messaged, now);
  return recipients.map((r) => (r.id === messaged.id ? messaged : r));
}
