import { findAccount, insertAccount, updateAccount } from '../../db/repositories/accounts.js';
import type { AccountRow, Plan } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';

export interface AccountView {
  object: 'account';
  id: string;
  name: string;
  email: string | null;
  plan: Plan;
  monthly_limit: number | null;
  per_minute_limit: number | null;
  /** No monthly quota at all (the first-start account and operator-made ones unless told otherwise). */
  unmetered: boolean;
  /** The signers' default language (BCP 47); null: English. */
  locale: string | null;
  created_at: string;
}

export function presentAccount(a: AccountRow): AccountView {
  return { object: 'account', id: a.id, name: a.name, email: a.email, plan: a.plan, monthly_limit: a.monthly_limit, per_minute_limit: a.per_minute_limit, unmetered: a.unmetered === 1, locale: a.locale ?? null, created_at: a.created_at };
}

/** `unmetered`: no monthly quota (what the operator's own accounts get unless told otherwise). */
export async function createAccount(deps: Pick<DomainDeps, 'transact' | 'clock'>, input: { name: string; plan?: Plan; email?: string | undefined; unmetered?: boolean }): Promise<AccountView> {
  if (!input.name.trim()) throw new AppError('parameter_invalid', 'An account needs a name.', 'name');
  const now = isoNow(deps.clock);
  const row: AccountRow = { id: newId('account'), name: input.name.trim(), email: input.email ?? null, plan: input.plan ?? 'trial', monthly_limit: null, per_minute_limit: null, unmetered: input.unmetered ? 1 : 0, locale: null, retention_days: null, created_at: now, updated_at: now };
  await deps.transact((trx) => insertAccount(trx, row));
  return presentAccount(row);
}

export async function setAccountPlan(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, id: string, plan: Plan): Promise<AccountView> {
  if (!(await deps.transact((trx) => updateAccount(trx, id, { plan, updated_at: isoNow(deps.clock) })))) throw notFound('account', id);
  return presentAccount((await findAccount(deps.db, id))!);
}

/** Operator overrides of the plan's defaults; null restores the default. */
export async function setAccountLimits(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>,
  id: string,
  limits: { monthly?: number | null | 'none'; perMinute?: number | null },
): Promise<AccountView> {
  for (const [k, v] of Object.entries(limits)) {
    if (k === 'monthly' && v === 'none') continue;
    if (v !== null && v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) throw new AppError('parameter_invalid', `${k} must be a positive whole number.`, k);
  }
  const patch = {
    // 'none': no monthly quota; a number or null (the plan's) makes the account metered again.
    ...(limits.monthly === 'none' ? { monthly_limit: null, unmetered: 1 } : limits.monthly !== undefined ? { monthly_limit: limits.monthly, unmetered: 0 } : {}),
    ...(limits.perMinute !== undefined ? { per_minute_limit: limits.perMinute } : {}),
    updated_at: isoNow(deps.clock),
  };
  if (!(await deps.transact((trx) => updateAccount(trx, id, patch)))) throw notFound('account', id);
  return presentAccount((await findAccount(deps.db, id))!);
}

export async function getAccount(deps: Pick<DomainDeps, 'db'>, id: string): Promise<AccountView> {
  const a = await findAccount(deps.db, id);
  if (!a) throw notFound('account', id);
  return presentAccount(a);
}
