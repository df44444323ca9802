import { updateAccount } from '../../db/repositories/accounts.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { accountName } from '../users/user-rules.js';

/** The dashboard's settings (issue 24): the account's name, by the same rule as at sign-up. */
export async function renameAccount(deps: Pick<DomainDeps, 'transact' | 'clock'>, accountId: string, input: unknown): Promise<{ name: string }> {
  const name = accountName(input, 'name');
  if (!(await deps.transact((trx) => updateAccount(trx, accountId, { name, updated_at: isoNow(deps.clock) })))) throw notFound('account', accountId);
  return { name };
}
