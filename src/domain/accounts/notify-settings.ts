import { findAccount } from '../../db/repositories/accounts.js';
import { findAccountNotify, upsertAccountNotify } from '../../db/repositories/notify-settings.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { isEmailAddress } from '../sending/recipient-rules.js';

/** Where an account's notices go, as the dashboard and `formsign accounts set-notify` show it. */
export interface NotifySettingsView {
  object: 'notification_settings';
  account_id: string;
  /** Told of completed forms (with the PDF) and declines; the Reply-To of the account's messages. Null: no notices. */
  notify_email: string | null;
  /** Also told of each recipient's first view. */
  notify_viewed: boolean;
}

export async function getNotifySettings(deps: Pick<DomainDeps, 'db'>, accountId: string): Promise<NotifySettingsView> {
  if (!(await findAccount(deps.db, accountId))) throw notFound('account', accountId);
  const row = await findAccountNotify(deps.db, accountId);
  return { object: 'notification_settings', account_id: accountId, notify_email: row?.notify_email ?? null, notify_viewed: row?.notify_viewed === 1 };
}

/**
 * Changes what is given and keeps the rest: `notify_email` (null clears it, and with it every notice
 * and the Reply-To), `notify_viewed`. The address passes the same rule as a recipient's e-mail
 * (recipient-rules.ts), trimmed; a display name or a second address is refused, not guessed at.
 */
export async function setNotifySettings(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>,
  accountId: string,
  change: { notify_email?: string | null | undefined; notify_viewed?: boolean | undefined },
): Promise<NotifySettingsView> {
  let email = change.notify_email;
  if (typeof email === 'string') {
    email = email.trim();
    if (!isEmailAddress(email)) throw new AppError('parameter_invalid', `notify_email must be one e-mail address (such as contracts@example.com); '${email.slice(0, 100)}' is not.`, 'notify_email');
  }
  const current = await getNotifySettings(deps, accountId);
  const next = {
    account_id: accountId,
    notify_email: email === undefined ? current.notify_email : email,
    notify_viewed: (change.notify_viewed ?? current.notify_viewed) ? 1 : 0,
    updated_at: isoNow(deps.clock),
  };
  await deps.transact((trx) => upsertAccountNotify(trx, next));
  return { object: 'notification_settings', account_id: accountId, notify_email: next.notify_email, notify_viewed: next.notify_viewed === 1 };
}
