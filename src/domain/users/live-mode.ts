import type { Plan } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import { AppError } from '../errors.js';
import type { Session } from './sessions.js';

// Live data and live keys need a paid plan: one rule for the dashboard's pages (the mode in the
// address) and for the keys it makes (the mode asked for).

const LIVE_NEEDS_PAID = 'Live mode needs a paid plan. Use test mode (and test keys) on the trial plan, or ask your operator to upgrade this account.';

/** Throws 402 plan_required for live on a plan other than paid. */
export function assertModeAllowed(plan: Plan | undefined, mode: 'test' | 'live', param?: string): void {
  if (mode === 'live' && plan !== 'paid') throw new AppError('plan_required', LIVE_NEEDS_PAID, param);
}

/** The signed-in account's partition in the mode a dashboard address names. */
export function sessionPartition(session: Session, mode: string): Partition {
  if (mode !== 'test' && mode !== 'live') throw new AppError('route_not_found', `No dashboard data in mode '${mode}': the modes are test and live.`);
  assertModeAllowed(session.view.account.plan, mode);
  return { accountId: session.accountId, mode };
}
