import type { Partition } from '../../lib/partition.js';
import { AppError } from '../errors.js';
import { assertModeAllowed } from '../plans/plan-rules.js';
import type { Session } from './sessions.js';

/** The signed-in account's partition in the mode a dashboard address names; live needs a paid plan (plans/plan-rules.ts). */
export function sessionPartition(session: Session, mode: string): Partition {
  if (mode !== 'test' && mode !== 'live') throw new AppError('route_not_found', `No dashboard data in mode '${mode}': the modes are test and live.`);
  assertModeAllowed(session.view.account.plan, mode);
  return { accountId: session.accountId, mode };
}
